#pragma once

#include <string>
#include <vector>

#include "core/deviceinfo.h"

namespace kwb {

// Number of CUDA devices; 0 when there is none or no driver (noDeviceReason() says which).
int deviceCount();
// One sentence for people: why there is no device to run on.
std::string noDeviceReason();
// Throws Error(NoDevice) when the ordinal does not name a device.
DeviceInfo queryDevice(int ordinal);
std::vector<DeviceInfo> queryDevices();
// Free device memory in bytes on the current device.
std::size_t freeDeviceMemory();

}  // namespace kwb
