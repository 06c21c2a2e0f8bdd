#include "core/traffic.h"

#include "core/format.h"

namespace kwb {
namespace {

constexpr double kTolerance = 0.10;

}  // namespace

std::optional<double> dramBytes(const RunResult& run) {
  const auto read = run.metricValue("dram__bytes_read.sum");
  const auto written = run.metricValue("dram__bytes_write.sum");
  if (!read || !written) return std::nullopt;
  return *read + *written;
}

std::optional<TrafficCheck> checkTraffic(const RunResult& run) {
  const auto measured = dramBytes(run);
  if (!measured || run.bytes == 0) return std::nullopt;
  TrafficCheck t;
  t.declared = static_cast<double>(run.bytes);
  t.measured = *measured;
  t.ratio = t.measured / t.declared;
  if (t.ratio > 1 + kTolerance)
    t.reading = formatted(
        "DRAM moved %.2fx the bytes the variant needs: data read more than once (a reuse that "
        "does not fit L2), accesses that fetch whole 32-byte sectors for fewer useful bytes "
        "(uncoalesced or misaligned), or partly written sectors read before they are written",
        t.ratio);
  else if (t.ratio < 1 - kTolerance)
    t.reading = formatted(
        run.mode == TimingMode::Hot
            ? "DRAM moved only %.2fx the bytes the variant needs: the data was in L2, as hot "
              "timing leaves it"
            : "DRAM moved only %.2fx the bytes the variant needs: part of it came from L2 (the "
              "flush before the counters' pass was not cold, or the working set stays in L2 "
              "between the kernels of a call), or the variant declares bytes it does not touch",
        t.ratio);
  return t;
}

}  // namespace kwb
