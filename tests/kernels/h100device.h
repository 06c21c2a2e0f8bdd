#pragma once

#include "core/deviceinfo.h"

namespace kwb {

// The H100's limits that launch shapes and auto's choices read, for tests without a GPU.
inline DeviceInfo h100() {
  DeviceInfo d;
  d.smCount = 132;
  d.maxThreadsPerSm = 2048;
  d.maxThreadsPerBlock = 1024;
  return d;
}

}  // namespace kwb
