#include "core/traffic.h"

#include <cmath>
#include <cstdio>

namespace kwb {
namespace {

constexpr double kTolerance = 0.10;

}  // namespace

std::optional<TrafficCheck> checkTraffic(const RunResult& run) {
  const Metric* read = run.metric("dram__bytes_read.sum");
  const Metric* written = run.metric("dram__bytes_write.sum");
  if (!read || !written || run.bytes == 0) return std::nullopt;
  TrafficCheck t;
  t.declared = static_cast<double>(run.bytes);
  t.measured = read->value + written->value;
  t.ratio = t.measured / t.declared;
  char text[512];
  if (t.ratio > 1 + kTolerance) {
    std::snprintf(text, sizeof text,
                  "DRAM moved %.2fx the bytes the variant needs: data read more than once (a "
                  "reuse that does not fit L2), accesses that fetch whole 32-byte sectors for "
                  "fewer useful bytes (uncoalesced or misaligned), or partly written sectors read "
                  "before they are written",
                  t.ratio);
    t.reading = text;
  } else if (t.ratio < 1 - kTolerance) {
    std::snprintf(text, sizeof text,
                  run.mode == TimingMode::Hot
                      ? "DRAM moved only %.2fx the bytes the variant needs: the data was in L2, as "
                        "hot timing leaves it"
                      : "DRAM moved only %.2fx the bytes the variant needs: part of it came from "
                        "L2 (the flush before the counters' pass was not cold, or the working set "
                        "stays in L2 between the kernels of a call), or the variant declares "
                        "bytes it does not touch",
                  t.ratio);
    t.reading = text;
  }
  return t;
}

}  // namespace kwb
