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
  const void* src = nullptr;
  void* dst = nullptr;

  // Positions a thread holds: a power of two, at least the tile's share of each thread.
  int perThread() const {
    int k = 1;
    while (k * block < tiling.volume) k *= 2;
    return k;
  }
  std::size_t sharedBytes() const {
    return static_cast<std::size_t>(tiling.sharedElements) * static_cast<std::size_t>(elementBytes);
  }
};

void launchPacked(const PackedLaunch& launch, cudaStream_t stream);

}  // namespace kwb::permute
