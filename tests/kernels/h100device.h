#pragma once

#include "core/deviceinfo.h"

namespace kwb {

// The H100's limits that launch shapes and auto's choices read, for tests without a GPU.
inline DeviceInfo h100() {
  DeviceInfo d;
  d.smCount = 132;
  d.maxThreadsPerSm = 2048;
  d.maxThreadsPerBlock = 1024;
  d.l2Bytes = std::int64_t{50} << 20;
  return d;
}

}  // namespace kwb
