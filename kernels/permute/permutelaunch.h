#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "kernels/permute/permuteplan.h"

namespace kwb::permute {

enum class PermuteWalk {
  Naive,    // the permutation as given, one element per thread, 64-bit index arithmetic
  Strided,  // a simplified permutation in units of `unitBytes`, grid-stride, 32-bit where it fits
  Rows,     // the same, each row of the destination's innermost dimension located once
};

// Moves each thread of the strided walk keeps in flight: its loads all issued before its first
// store.
inline constexpr int kStridedUnroll = 4;

// The row walk hands each lane of a warp one row's source offset, so a warp's 32 x kStridedUnroll
// consecutive units may cross 31 row ends at most: rows of (32 x kStridedUnroll - 1) / 31 units,
// rounded up, or more (5).
inline constexpr std::int64_t kMinWalkRow = (32 * kStridedUnroll - 1 + 30) / 31;

// One launch of a permute kernel: `plan` counts in units of unitBytes (1, 2, 4, 8 or 16).
struct PermuteLaunch {
  Permutation plan;
  int unitBytes = 4;
  PermuteWalk walk = PermuteWalk::Strided;
  bool index32 = false;
  int grid = 1;
  int block = 256;
  const void* src = nullptr;
  void* dst = nullptr;
};

void launchPermute(const PermuteLaunch& launch, cudaStream_t stream);

}  // namespace kwb::permute
