#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "core/dtype.h"

namespace kwb {

// Fills a device buffer with reproducible random values: uniform in [-1, 1) for floating types,
// uniform bytes for u8, uniform in [0, 2^31) for i32. The same seed gives the same data on every
// device.
void fillRandom(void* data, DType type, std::size_t count, std::uint64_t seed, cudaStream_t stream);

}  // namespace kwb
