#include "measure/gpustatesampler.h"

#include "measure/clocksampler.h"
#include "measure/measureconfig.h"
#if KWB_HAVE_NVML
#include "measure/nvmlsampler.h"
#endif

namespace kwb {

std::unique_ptr<GpuStateSampler> makeGpuStateSampler(const DeviceInfo& device,
                                                     cudaStream_t stream) {
#if KWB_HAVE_NVML
  if (auto nvml = NvmlSampler::create(device)) return nvml;
#endif
  return std::make_unique<ClockSampler>(device, stream);
}

}  // namespace kwb
