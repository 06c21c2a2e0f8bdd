#pragma once

#include <cstdint>
#include <string>

namespace kwb {

// What the workbench records about a GPU; plain values, filled by measure/ and stored by db/.
struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  std::string uuid;  // "GPU-xxxxxxxx-xxxx-..." as nvidia-smi prints it
  int ccMajor = 0;
  int ccMinor = 0;
  int smCount = 0;
  int maxThreadsPerSm = 0;
  int maxThreadsPerBlock = 0;
  std::int64_t l2Bytes = 0;
  int memBusBits = 0;
  std::int64_t memClockKhz = 0;
  std::uint64_t totalMemBytes = 0;
  double peakBandwidth = 0;  // bytes/s: 2 (DDR) x memory clock x bus width / 8
  int driverVersion = 0;     // 13000 for 13.0
  int runtimeVersion = 0;

  std::string computeCapability() const {
    return std::to_string(ccMajor) + "." + std::to_string(ccMinor);
  }
};

// The measured copy ceiling of a device: the best bandwidth a plain copy reaches there.
struct CopyCeiling {
  double bandwidth = 0;         // bytes/s, read + write counted
  std::uint64_t bytes = 0;      // bytes moved by the copy measured
  std::string method;           // "memcpy" or "vectorized"
  std::int64_t measuredAt = 0;  // unix milliseconds
};

}  // namespace kwb
