#pragma once

#include <cstddef>
#include <string_view>

#include <cuda_runtime.h>

#include "core/deviceinfo.h"

namespace kwb {

// The micro-kernels behind the measured ceilings (core/ceilings.h), but DRAM's, which is the copy
// ceiling. Each launch fills every SM and does `iterations` rounds of its work; the return value
// is the bytes or flops one launch does. `scratch` holds at least ceilingScratchBytes(device):
// the L2 kernel's buffer and every kernel's per-thread result, which keeps the work from being
// optimized away.
double launchCeilingKernel(std::string_view ceiling, const DeviceInfo& device, void* scratch,
                           int iterations, cudaStream_t stream);

std::size_t ceilingScratchBytes(const DeviceInfo& device);

// One read of `bytes` at `data` (16-byte aligned) by the L2 kernel, results to `out` (a thread's
// float each, in the scratch): over a buffer far past L2, the DRAM read bandwidth. Returns the
// bytes read.
double launchStreamRead(const DeviceInfo& device, const void* data, std::size_t bytes, float* out,
                        cudaStream_t stream);

}  // namespace kwb
