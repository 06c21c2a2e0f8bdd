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

// Kernel start and end times from CUPTI's Activity API (serialized kernel records: the GPU's
// timestamps of each kernel, without the CUDA events' own time).
class ActivityTracer {
 public:
  ActivityTracer();  // throws CuptiError
  // The kernels `run` launched, in start order.
  std::vector<KernelRecord> trace(const std::function<void()>& run);
};

}  // namespace kwb
