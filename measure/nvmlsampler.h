#pragma once

#include <memory>

#include "measure/gpustatesampler.h"

namespace kwb {

// GPU state from NVML, loaded from the driver at run time so that kwb starts on machines
// without it. create() returns nullptr where the library or the device cannot be opened.
class NvmlSampler final : public GpuStateSampler {
 public:
  static std::unique_ptr<NvmlSampler> create(const DeviceInfo& device);
  ~NvmlSampler() override;
  NvmlSampler(const NvmlSampler&) = delete;
  NvmlSampler& operator=(const NvmlSampler&) = delete;

  GpuStateSample sample() override;
  GpuStateSource source() const override { return GpuStateSource::Nvml; }

 private:
  struct Api;
  explicit NvmlSampler(std::unique_ptr<Api> api);
  std::unique_ptr<Api> api_;
};

}  // namespace kwb
