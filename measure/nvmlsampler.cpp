#include "measure/nvmlsampler.h"

#include <dlfcn.h>

#include "measure/nvmlapi.h"

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
  nvml::Device device = nullptr;
  nvml::Shutdown shutdown = nullptr;
  nvml::ClockInfo clockInfo = nullptr;
  nvml::Temperature temperature = nullptr;
  nvml::PowerUsage powerUsage = nullptr;
  nvml::TotalEnergy energy = nullptr;
  nvml::EventReasons reasons = nullptr;

  ~Api() {
    if (shutdown) shutdown();
    if (library) dlclose(library);
  }
};

std::unique_ptr<NvmlSampler> NvmlSampler::create(const DeviceInfo& device) {
  auto api = std::make_unique<Api>();
  api->library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!api->library) return nullptr;
  const auto init = symbol<nvml::Init>(api->library, "nvmlInit_v2");
  const auto byUuid = symbol<nvml::HandleByUuid>(api->library, "nvmlDeviceGetHandleByUUID");
  api->shutdown = symbol<nvml::Shutdown>(api->library, "nvmlShutdown");
  if (!init || !byUuid || !api->shutdown || init() != nvml::kSuccess) {
    api->shutdown = nullptr;
    return nullptr;
  }
  if (byUuid(device.uuid.c_str(), &api->device) != nvml::kSuccess) return nullptr;
  api->clockInfo = symbol<decltype(api->clockInfo)>(api->library, "nvmlDeviceGetClockInfo");
  api->temperature = symbol<decltype(api->temperature)>(api->library, "nvmlDeviceGetTemperature");
  api->powerUsage = symbol<decltype(api->powerUsage)>(api->library, "nvmlDeviceGetPowerUsage");
  api->energy = symbol<decltype(api->energy)>(api->library, "nvmlDeviceGetTotalEnergyConsumption");
  api->reasons =
      symbol<decltype(api->reasons)>(api->library, "nvmlDeviceGetCurrentClocksEventReasons");
  if (!api->reasons)  // its name before drivers of 2023
    api->reasons =
        symbol<decltype(api->reasons)>(api->library, "nvmlDeviceGetCurrentClocksThrottleReasons");
  return std::unique_ptr<NvmlSampler>(new NvmlSampler(std::move(api)));
}

NvmlSampler::NvmlSampler(std::unique_ptr<Api> api) : api_(std::move(api)) {}

NvmlSampler::~NvmlSampler() = default;

GpuStateSample NvmlSampler::sample() {
  GpuStateSample s;
  const nvml::Device d = api_->device;
  unsigned int value = 0;
  if (api_->clockInfo && api_->clockInfo(d, nvml::kClockSm, &value) == nvml::kSuccess)
    s.smClockMhz = value;
  if (api_->clockInfo && api_->clockInfo(d, nvml::kClockMemory, &value) == nvml::kSuccess)
    s.memClockMhz = value;
  if (api_->temperature && api_->temperature(d, nvml::kTemperatureGpu, &value) == nvml::kSuccess)
    s.temperatureC = value;
  if (api_->powerUsage && api_->powerUsage(d, &value) == nvml::kSuccess) s.powerW = value * 1e-3;
  unsigned long long counter = 0;
  if (api_->energy && api_->energy(d, &counter) == nvml::kSuccess)
    s.energyJ = static_cast<double>(counter) * 1e-3;
  if (api_->reasons && api_->reasons(d, &counter) == nvml::kSuccess)
    s.throttled = (counter & kThrottleReasons) != 0;
  return s;
}

}  // namespace kwb
