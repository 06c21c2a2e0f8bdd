#include "measure/nvmlsampler.h"

#include <dlfcn.h>
#include <nvml.h>

namespace kwb {
namespace {

// Clock event reasons that mean the clocks are held below what the load asks for: software
// power cap, hardware slowdown, software and hardware thermal slowdown, power brake. Idle,
// application clocks and sync boost are not throttling.
constexpr unsigned long long kThrottleReasons = 0x4 | 0x8 | 0x20 | 0x40 | 0x80;

template <typename F>
F symbol(void* library, const char* name) {
  return reinterpret_cast<F>(dlsym(library, name));
}

}  // namespace

// The NVML functions used, resolved by name; any but init, handle lookup and shutdown may be
// missing from an old driver, and its reading then stays NaN.
struct NvmlSampler::Api {
  void* library = nullptr;
  nvmlDevice_t device{};
  decltype(&nvmlShutdown) shutdown = nullptr;
  decltype(&nvmlDeviceGetClockInfo) clockInfo = nullptr;
  decltype(&nvmlDeviceGetTemperature) temperature = nullptr;
  decltype(&nvmlDeviceGetPowerUsage) powerUsage = nullptr;
  decltype(&nvmlDeviceGetTotalEnergyConsumption) energy = nullptr;
  decltype(&nvmlDeviceGetCurrentClocksEventReasons) reasons = nullptr;

  ~Api() {
    if (shutdown) shutdown();
    if (library) dlclose(library);
  }
};

std::unique_ptr<NvmlSampler> NvmlSampler::create(const DeviceInfo& device) {
  auto api = std::make_unique<Api>();
  api->library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!api->library) return nullptr;
  const auto init = symbol<decltype(&nvmlInit_v2)>(api->library, "nvmlInit_v2");
  const auto byUuid =
      symbol<decltype(&nvmlDeviceGetHandleByUUID)>(api->library, "nvmlDeviceGetHandleByUUID");
  api->shutdown = symbol<decltype(&nvmlShutdown)>(api->library, "nvmlShutdown");
  if (!init || !byUuid || !api->shutdown || init() != NVML_SUCCESS) {
    api->shutdown = nullptr;
    return nullptr;
  }
  if (byUuid(device.uuid.c_str(), &api->device) != NVML_SUCCESS) return nullptr;
  api->clockInfo = symbol<decltype(api->clockInfo)>(api->library, "nvmlDeviceGetClockInfo");
  api->temperature = symbol<decltype(api->temperature)>(api->library, "nvmlDeviceGetTemperature");
  api->powerUsage = symbol<decltype(api->powerUsage)>(api->library, "nvmlDeviceGetPowerUsage");
  api->energy = symbol<decltype(api->energy)>(api->library, "nvmlDeviceGetTotalEnergyConsumption");
  api->reasons =
      symbol<decltype(api->reasons)>(api->library, "nvmlDeviceGetCurrentClocksEventReasons");
  return std::unique_ptr<NvmlSampler>(new NvmlSampler(std::move(api)));
}

NvmlSampler::NvmlSampler(std::unique_ptr<Api> api) : api_(std::move(api)) {}

NvmlSampler::~NvmlSampler() = default;

GpuStateSample NvmlSampler::sample() {
  GpuStateSample s;
  const nvmlDevice_t d = api_->device;
  unsigned int value = 0;
  if (api_->clockInfo && api_->clockInfo(d, NVML_CLOCK_SM, &value) == NVML_SUCCESS)
    s.smClockMhz = value;
  if (api_->clockInfo && api_->clockInfo(d, NVML_CLOCK_MEM, &value) == NVML_SUCCESS)
    s.memClockMhz = value;
  if (api_->temperature && api_->temperature(d, NVML_TEMPERATURE_GPU, &value) == NVML_SUCCESS)
    s.temperatureC = value;
  if (api_->powerUsage && api_->powerUsage(d, &value) == NVML_SUCCESS) s.powerW = value * 1e-3;
  unsigned long long counter = 0;
  if (api_->energy && api_->energy(d, &counter) == NVML_SUCCESS)
    s.energyJ = static_cast<double>(counter) * 1e-3;
  if (api_->reasons && api_->reasons(d, &counter) == NVML_SUCCESS)
    s.throttled = (counter & kThrottleReasons) != 0;
  return s;
}

}  // namespace kwb
