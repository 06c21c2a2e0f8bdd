#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "kernels/hostdevice.h"
#include "kernels/permute/permuteplan.h"

namespace kwb::permute {

enum class PermuteWalk {
  Naive,    // the permutation as given, one element per thread, 64-bit index arithmetic
  Strided,  // a simplified permutation in units of `unitBytes`, grid-stride, 32-bit where it fits
  Rows,     // the same, each row of the destination's innermost dimension located once
};

// Moves each thread of the strided walk keeps in flight, its loads all issued before its first
// store (deep walks, below, more).
inline constexpr int kStridedUnroll = 4;

// The row walk hands each lane of a warp one row's source offset, so a warp's 32 x kStridedUnroll
// consecutive units may cross 31 row ends at most: rows of (32 x kStridedUnroll - 1) / 31 units,
// rounded up, or more (5).
inline constexpr std::int64_t kMinWalkRow = (32 * kStridedUnroll - 1 + 30) / 31;

// Deep walks keep more moves in flight a thread where the grid still fills the device's thread
// slots: units of 2 bytes 16 moves and rows of them two stretches a warp, units of 4 bytes 8
// moves. On the random bench's walks, against four moves (H100): (17, 20, 170, 80, 29) with (3,
// 1, 0, 2, 4) in f16 0.81x the time, (1000, 4, 5, 5, 635) with (3, 0, 2, 4, 1) in f16 0.91x,
// (14, 96, 24, 3, 96) with (2, 1, 0, 4, 3) in f32 0.92x; rows of 5 halves lost 3.5 % ((189, 202,
// 100, 7, 5) with (1, 3, 2, 0, 4)). Grids of less than a wave lost up to 4 % (4 MiB of f32), single
// bytes lost at every depth tried (1.00 to 1.09x) and 8-byte units went both ways (0.96 to 1.02x):
// they keep kStridedUnroll.
KWB_HOST_DEVICE constexpr int unitWalkUnroll(int unitBytes, bool deep) {
  return !deep ? kStridedUnroll : unitBytes == 2 ? 16 : unitBytes == 4 ? 8 : kStridedUnroll;
}

// Stretches of 32 x kStridedUnroll units a warp of the row walk keeps in flight.
KWB_HOST_DEVICE constexpr int rowWalkStretches(int unitBytes, bool deep) {
  return deep && unitBytes == 2 ? 2 : 1;
}

// Units a thread moves per step of its walk.
constexpr int unitsPerThread(PermuteWalk walk, int unitBytes, bool deep) {
  return walk == PermuteWalk::Rows ? kStridedUnroll * rowWalkStretches(unitBytes, deep)
                                   : unitWalkUnroll(unitBytes, deep);
}

// One launch of a permute kernel: `plan` counts in units of unitBytes (1, 2, 4, 8 or 16).
struct PermuteLaunch {
  Permutation plan;
  int unitBytes = 4;
  PermuteWalk walk = PermuteWalk::Strided;
  bool index32 = false;
  bool deep = false;  // with index32 only
  int grid = 1;
  int block = 256;
  const void* src = nullptr;
  void* dst = nullptr;
};

void launchPermute(const PermuteLaunch& launch, cudaStream_t stream);

}  // namespace kwb::permute
