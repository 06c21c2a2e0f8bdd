#pragma once

#include <memory>

#include <cuda_runtime.h>

#include "core/deviceinfo.h"
#include "core/gpustate.h"

namespace kwb {

// Reads the GPU's clocks, temperature, power and energy between timing batches.
class GpuStateSampler {
 public:
  virtual ~GpuStateSampler() = default;
  virtual GpuStateSample sample() = 0;
  virtual GpuStateSource source() const = 0;
};

// NVML where the driver's library loads (and the build has not left it out); otherwise a kernel
// that measures the SM clock on `stream`.
std::unique_ptr<GpuStateSampler> makeGpuStateSampler(const DeviceInfo& device, cudaStream_t stream);

}  // namespace kwb
