#include "kernels/launchgeometry.h"

#include <algorithm>
#include <cstdio>

namespace kwb {

std::int64_t waveThreads(const DeviceInfo& device) {
  return std::int64_t{device.smCount} * device.maxThreadsPerSm;
}

int gridForWaves(std::uint64_t workItems, int blockSize, int waves, const DeviceInfo& device) {
  const std::uint64_t needed = (workItems + blockSize - 1) / blockSize;
  const std::uint64_t resident =
      static_cast<std::uint64_t>(waveThreads(device)) / blockSize * waves;
  const std::uint64_t grid = std::max<std::uint64_t>(1, std::min(needed, resident));
  return static_cast<int>(std::min<std::uint64_t>(grid, 0x7fffffff));
}

ParamSet describeGrid(int grid, int blockSize, const DeviceInfo& device) {
  ParamSet derived;
  derived.set("grid", std::to_string(grid));
  derived.set("block", std::to_string(blockSize));
  const double perWave = static_cast<double>(device.smCount) * device.maxThreadsPerSm / blockSize;
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", perWave > 0 ? grid / perWave : 0.0);
  derived.set("waves_effective", text);
  std::snprintf(text, sizeof text, "%.2f",
                device.smCount > 0 ? static_cast<double>(grid) / device.smCount : 0.0);
  derived.set("blocks_per_sm", text);
  return derived;
}

}  // namespace kwb
