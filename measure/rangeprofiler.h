#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace kwb {

// CUPTI's Range Profiler (CUDA 12.6+, the Profiler API's successor) in auto-range mode with
// kernel replay: every kernel launched between start and stop becomes a range of its own, and
// CUPTI replays it as many times as the metrics need passes, restoring memory in between.
class RangeProfiler {
 public:
  // Throws CuptiError when the profiler cannot start on this device.
  explicit RangeProfiler(int ordinal);
  ~RangeProfiler();
  RangeProfiler(const RangeProfiler&) = delete;
  RangeProfiler& operator=(const RangeProfiler&) = delete;

  const std::string& chip() const { return chip_; }

  // The name this chip reads for each wanted one: the name itself, or the first alias the chip
  // knows. Throws paramError("metrics") naming the first metric the chip has under no name.
  std::vector<std::string> resolve(const std::vector<std::string>& wanted) const;

  // Values of `names` for each kernel `launch` runs, in launch order (at most maxRanges).
  std::vector<std::vector<double>> profile(const std::vector<std::string>& names,
                                           const std::function<void()>& launch,
                                           std::size_t maxRanges);

 private:
  int ordinal_;
  std::string chip_;
  std::vector<std::string> baseMetrics_;  // sorted
};

}  // namespace kwb
