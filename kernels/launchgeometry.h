#pragma once

#include <cstdint>

#include "core/deviceinfo.h"
#include "core/paramset.h"

namespace kwb {

// Threads the device holds at once, a wave of them: SMs x max resident threads per SM.
std::int64_t waveThreads(const DeviceInfo& device);

// OneFlow's grid rule: enough blocks for `waves` full waves of the device (SMs x max resident
// threads per SM / block size x waves), never more blocks than the work needs, at least one.
int gridForWaves(std::uint64_t workItems, int blockSize, int waves, const DeviceInfo& device);

// grid, block, blocks_per_sm and the waves the grid really makes, for a result's derived values.
ParamSet describeGrid(int grid, int blockSize, const DeviceInfo& device);

}  // namespace kwb
