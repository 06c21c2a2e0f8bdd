#pragma once

#include <cuda_runtime.h>

#include "kernels/permute/permuteplan.h"

namespace kwb::permute {

enum class PermuteWalk {
  Naive,    // the permutation as given, one element per thread, 64-bit index arithmetic
  Strided,  // a simplified permutation in units of `unitBytes`, grid-stride, 32-bit where it fits
};

// Moves each thread of the strided walk keeps in flight: its loads all issued before its first
// store.
inline constexpr int kStridedUnroll = 4;

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
