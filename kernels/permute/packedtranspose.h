#pragma once

#include <cuda_runtime.h>

#include "kernels/permute/packedtiling.h"

namespace kwb::permute {

// Tile positions a thread keeps in registers at most: a tile of up to 8 a thread.
inline constexpr int kMaxPackedPerThread = 8;

// One launch of the packed permute: each thread works out once where each of its positions in
// a tile lies, in both orders, and moves every tile with them.
struct PackedLaunch {
  PackedTiling tiling;
  int elementBytes = 4;
  bool index32 = true;
  int block = 512;
  int grid = 1;
  PackedWords words;  // bytes 0: single elements
  const void* src = nullptr;
  void* dst = nullptr;

  // Positions (in words: words) a thread holds: a power of two, at least the tile's share of
  // each thread.
  int perThread() const {
    const int each = words.bytes ? words.bytes / elementBytes : 1;
    int k = 1;
    while (k * block * each < tiling.volume) k *= 2;
    return k;
  }
  // In words the tile lies unpadded, in whole 128-byte rows for the swizzle.
  std::size_t sharedBytes() const {
    if (words.bytes)
      return (static_cast<std::size_t>(tiling.volume) * static_cast<std::size_t>(elementBytes) +
              127) /
             128 * 128;
    return static_cast<std::size_t>(tiling.sharedElements) * static_cast<std::size_t>(elementBytes);
  }
};

void launchPacked(const PackedLaunch& launch, cudaStream_t stream);

// Blocks of the launch's kernel an SM holds at once, by its registers and shared memory; 0 where
// no device answers.
int packedResidentBlocks(const PackedLaunch& launch);

// The kernel in words, launched or, where `resident` is given, asked how many of its blocks an
// SM holds.
void launchPackedWords(const PackedLaunch& launch, cudaStream_t stream, int* resident);

}  // namespace kwb::permute
