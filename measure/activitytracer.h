#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace kwb {

struct KernelRecord {
  std::string name;    // shortKernelName
  std::string symbol;  // mangled, as the binary names it
  std::uint64_t startNs = 0;
  std::uint64_t endNs = 0;
  double seconds() const { return static_cast<double>(endNs - startNs) * 1e-9; }
};

// Exact kernel start and end times from CUPTI's Activity API (concurrent-kernel records: the GPU
// timestamps of each kernel, without the launch and event overheads that CUDA events include).
class ActivityTracer {
 public:
  ActivityTracer();  // throws CuptiError
  // The kernels `run` launched, in start order.
  std::vector<KernelRecord> trace(const std::function<void()>& run);
};

}  // namespace kwb
