#pragma once

#include "measure/gpustatesampler.h"

namespace kwb {

// The SM clock measured by a kernel that counts its own cycles against the GPU's nanosecond
// timer: the one state reading possible without NVML. Below 90 % of the device's peak clock the
// reading counts as throttled.
class ClockSampler final : public GpuStateSampler {
 public:
  ClockSampler(const DeviceInfo& device, cudaStream_t stream);
  ~ClockSampler() override;
  ClockSampler(const ClockSampler&) = delete;
  ClockSampler& operator=(const ClockSampler&) = delete;

  GpuStateSample sample() override;
  GpuStateSource source() const override { return GpuStateSource::ClockKernel; }

 private:
  cudaStream_t stream_;
  double peakMhz_ = 0;
  unsigned long long* counts_ = nullptr;  // mapped host memory: cycles, nanoseconds
  unsigned long long* deviceCounts_ = nullptr;
};

}  // namespace kwb
