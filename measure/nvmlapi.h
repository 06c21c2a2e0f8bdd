#pragma once

// The part of NVML's C interface kwb calls, declared here rather than taken from the toolkit's
// nvml.h so that every build reads power, energy and clocks where the driver's libnvidia-ml.so.1
// is: the library is opened at run time, its functions found by name (NVML keeps old names and
// their arguments unchanged across drivers).
namespace kwb::nvml {

using Result = int;  // nvmlReturn_t
inline constexpr Result kSuccess = 0;

struct DeviceHandle;  // nvmlDevice_t points to it
using Device = DeviceHandle*;

// nvmlClockType_t and nvmlTemperatureSensors_t values.
inline constexpr int kClockSm = 1;
inline constexpr int kClockMemory = 2;
inline constexpr int kTemperatureGpu = 0;

using Init = Result (*)();
using Shutdown = Result (*)();
using HandleByUuid = Result (*)(const char* uuid, Device* device);
using ClockInfo = Result (*)(Device device, int clock, unsigned int* mhz);
using Temperature = Result (*)(Device device, int sensor, unsigned int* celsius);
using PowerUsage = Result (*)(Device device, unsigned int* milliwatts);
using TotalEnergy = Result (*)(Device device, unsigned long long* millijoules);
using EventReasons = Result (*)(Device device, unsigned long long* reasons);

}  // namespace kwb::nvml
