#pragma once

#include <optional>
#include <string>

#include "core/runresult.h"

namespace kwb {

// The DRAM bytes the counters read (dram__bytes_read.sum + dram__bytes_write.sum, the run's
// counter pass) against the bytes the variant declares it must move: where they differ, the
// kernel does not move what it looks like it moves.
struct TrafficCheck {
  double declared = 0;  // bytes
  double measured = 0;  // bytes
  double ratio = 0;     // measured / declared
  std::string reading;  // why they differ, where they differ by more than 10 %; else empty
};

// None for a run without both DRAM counters or without declared bytes.
std::optional<TrafficCheck> checkTraffic(const RunResult& run);

// The bytes DRAM read and wrote in the run's counter pass; none without both counters.
std::optional<double> dramBytes(const RunResult& run);

}  // namespace kwb
