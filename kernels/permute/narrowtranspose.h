#pragma once

#include <cstdint>

#include <cuda_runtime.h>

namespace kwb::permute {

// Batched transposes with one narrow side, as NCHW <-> NHWC with few channels: `narrow` planes
// of `wide` elements each, read or written interleaved (wide x narrow). A square tile would be
// mostly empty; instead a block moves every plane's run of `chunkWidth` elements, which is one
// contiguous run of the interleaved side, both through shared memory in accesses of vectorBytes.
struct NarrowLaunch {
  std::int64_t batch = 1;
  std::int64_t narrow = 0;   // planes: the short side
  std::int64_t wide = 0;     // elements per plane: the long side
  bool planarSource = true;  // planes -> interleaved; false: interleaved -> planes
  int elementBytes = 4;
  int vectorBytes = 16;  // bytes per global access: divides wide * elementBytes
  int block = 256;
  bool index32 = true;
  int grid = 1;
  const void* src = nullptr;
  void* dst = nullptr;

  // Vector accesses each thread has in flight: a block's chunk is block * this many vectors.
  static constexpr int kVectorsPerThread = 4;

  std::int64_t elementsPerVector() const { return vectorBytes / elementBytes; }
  // Elements of each plane one block moves at once: a whole number of vectors.
  std::int64_t chunkWidth() const {
    return elementsPerVector() * (block * kVectorsPerThread / narrow);
  }
  std::int64_t chunks() const { return batch * ((wide + chunkWidth() - 1) / chunkWidth()); }
  std::int64_t sharedBytes() const { return chunkWidth() * narrow * elementBytes; }
};

// The widest access of at most `limit` bytes, and no narrower than an element, that divides a
// plane of `wide` elements and the source's start, `sourceOffsetBytes` into its allocation.
int narrowVectorBytes(std::int64_t wide, int elementBytes, std::int64_t sourceOffsetBytes = 0,
                      int limit = 16);

void launchNarrowTranspose(const NarrowLaunch& launch, cudaStream_t stream);

}  // namespace kwb::permute
