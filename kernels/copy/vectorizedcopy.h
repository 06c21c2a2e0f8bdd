#pragma once

#include <cstddef>

#include <cuda_runtime.h>

namespace kwb {

// Copies `count` elements of `elementBytes` each, moving `vectorBytes` per load and store
// (a multiple of elementBytes, at most 16) in a grid-stride loop; the elements that do not fill
// a last vector are copied one by one. Both pointers must be aligned to vectorBytes.
void launchVectorizedCopy(void* dst, const void* src, std::size_t count, int elementBytes,
                          int vectorBytes, int grid, int block, cudaStream_t stream);

}  // namespace kwb
