// The packed permute: a tile of whole dimensions read in the source's order into shared memory
// and written in the destination's. Each thread works out where each of its positions in a
// tile lies once, in registers, so that moving a tile costs an add, a mask bit and two accesses
// an element on each side, whatever the rank.
#include <cstdint>
#include <type_traits>

#include "core/error.h"
#include "kernels/cudacheck.h"
#include "kernels/permute/packedtile.cuh"
#include "kernels/permute/packedtranspose.h"
#include "kernels/units.cuh"

namespace kwb::permute {
namespace {

using namespace packed;

constexpr std::size_t kMaxSharedBytes = 48 * 1024;
constexpr int kMaxBlock = 512;
// A tile's shared indices, padding included (at most twice its elements), fit 15 bits: two of
// them share a register.
static_assert(2 * kMaxPackedVolume < (1 << 15));

// The next position of the thread, a block further: the block's digits added with carries.
template <typename Index>
__device__ __forceinline__ void advance(const Dims<Index>& d, int (&digit)[kMaxDims]) {
  int carry = 0;
#pragma unroll
  for (int k = 0; k < kMaxDims; ++k)
    if (k < d.rank) {
      digit[k] += d.step[k] + carry;
      carry = digit[k] >= d.extent[k];
      if (carry) digit[k] -= d.extent[k];
    }
}

// Each thread's positions in one order, worked out once: the first by division, the others by
// adding the block's digits. Bit j of the masks: position j is in the tile, and in a last chunk
// that holds lastHeld of the split dimension.
template <typename Index, int K>
__device__ __forceinline__ void positions(const Args<Index>& a, const Dims<Index>& d,
                                          Index (&offset)[K], int (&shared)[K], unsigned& inTile,
                                          unsigned& inLast) {
  int digit[kMaxDims];
  digitsOf(d, threadIdx.x, digit);
  inTile = inLast = 0;
#pragma unroll
  for (int j = 0; j < K; ++j) {
    place(d, digit, offset[j], shared[j]);
    int splitDigit = 0;
#pragma unroll
    for (int k = 0; k < kMaxDims; ++k)
      if (k == d.split) splitDigit = digit[k];
    const bool tile = threadIdx.x + j * blockDim.x < a.volume;
    inTile |= static_cast<unsigned>(tile) << j;
    inLast |= static_cast<unsigned>(tile && splitDigit < a.lastHeld) << j;
    if (j + 1 < K) advance(d, digit);
  }
}

template <int K, typename T, typename Index>
__device__ __forceinline__ void load(const T* __restrict__ src, const Bases<Index>& at,
                                     const Index (&srcAt)[K], unsigned moving, T (&v)[K]) {
  // The tile's base once, each position's offset (never negative) added unsigned: one
  // three-input add an element instead of a 32-bit add and a sign-extending 64-bit one.
  const T* from = src + at.src;
#pragma unroll
  for (int j = 0; j < K; ++j)
    if (moving >> j & 1) v[j] = from[static_cast<std::make_unsigned_t<Index>>(srcAt[j])];
}

// Each block walks its tiles: every thread loads its positions of a tile in the source's order
// into shared memory, and after a barrier stores its positions in the destination's order.
template <typename T, int K, typename Index>
__global__ void __launch_bounds__(kMaxBlock)
    packedKernel(const T* __restrict__ src, T* __restrict__ dst, const Args<Index> a) {
  extern __shared__ __align__(16) unsigned char shared[];
  T* tile = reinterpret_cast<T*>(shared);
  // Per position: its offsets, and its shared indices in 16 bits each (load | store << 16).
  Index srcAt[K], dstAt[K];
  int sharedAt[K], storeShared[K];
  unsigned loadTile, loadLast, storeTile, storeLast;
  positions(a, a.load, srcAt, sharedAt, loadTile, loadLast);
  positions(a, a.store, dstAt, storeShared, storeTile, storeLast);
#pragma unroll
  for (int j = 0; j < K; ++j) sharedAt[j] |= storeShared[j] << 16;

  // The next tile's loads go out as soon as this tile is in shared memory, and are in flight
  // while it is stored: the block always has loads in flight.
  Index t = blockIdx.x;
  if (t >= a.tiles) return;
  Bases<Index> at = basesOf(a, t);
  T v[K];
  load(src, at, srcAt, at.last ? loadLast : loadTile, v);
  for (; t < a.tiles; t += gridDim.x) {
    const unsigned loading = at.last ? loadLast : loadTile;
#pragma unroll
    for (int j = 0; j < K; ++j)
      if (loading >> j & 1) tile[sharedAt[j] & 0xffff] = v[j];
    __syncthreads();
    const Bases<Index> here = at;
    const Index next = t + static_cast<Index>(gridDim.x);
    if (next < a.tiles) {
      at = basesOf(a, next);
      load(src, at, srcAt, at.last ? loadLast : loadTile, v);
    }
    const unsigned storing = here.last ? storeLast : storeTile;
    T* to = dst + here.dst;
#pragma unroll
    for (int j = 0; j < K; ++j)
      if (storing >> j & 1)
        to[static_cast<std::make_unsigned_t<Index>>(dstAt[j])] = tile[sharedAt[j] >> 16];
    __syncthreads();
  }
}

template <typename T, int K, typename Index>
void launchWith(const PackedLaunch& l, cudaStream_t stream, int* resident) {
  if (resident) {
    *resident = residentBlocks(packedKernel<T, K, Index>, l.block, l.sharedBytes());
    return;
  }
  packedKernel<T, K, Index><<<l.grid, l.block, l.sharedBytes(), stream>>>(
      static_cast<const T*>(l.src), static_cast<T*>(l.dst), argsOf<Index>(l.tiling, l.block));
  KWB_CHECK_LAUNCH("packedKernel");
}

template <typename T, typename Index>
void launchIndexed(const PackedLaunch& l, cudaStream_t stream, int* resident) {
  switch (l.perThread()) {
    case 1: return launchWith<T, 1, Index>(l, stream, resident);
    case 2: return launchWith<T, 2, Index>(l, stream, resident);
    case 4: return launchWith<T, 4, Index>(l, stream, resident);
    case 8: return launchWith<T, 8, Index>(l, stream, resident);
    default: break;
  }
  throw Error(ErrorKind::Internal, "packed permute: " + std::to_string(l.perThread()) +
                                       " positions a thread for a tile of " +
                                       std::to_string(l.tiling.volume) + " and blocks of " +
                                       std::to_string(l.block));
}

// Launches the kernel the launch needs or, where `resident` is given, asks how many of its blocks
// an SM holds instead.
void dispatch(const PackedLaunch& l, cudaStream_t stream, int* resident) {
  if (l.words.bytes) return launchPackedWords(l, stream, resident);
  if (l.sharedBytes() > kMaxSharedBytes || l.block > kMaxBlock)
    throw Error(ErrorKind::Internal, "packed permute: a " + l.tiling.describe() + " needs " +
                                         std::to_string(l.sharedBytes()) +
                                         " bytes of shared memory, blocks of " +
                                         std::to_string(l.block));
  withUnit<8>(l.elementBytes, "packed permute", [&](auto element) {
    using T = decltype(element);
    if (l.index32) return launchIndexed<T, std::int32_t>(l, stream, resident);
    launchIndexed<T, std::int64_t>(l, stream, resident);
  });
}

}  // namespace

void launchPacked(const PackedLaunch& l, cudaStream_t stream) {
  dispatch(l, stream, nullptr);
}

int packedResidentBlocks(const PackedLaunch& l) {
  int blocks = 0;
  dispatch(l, nullptr, &blocks);
  return blocks;
}

}  // namespace kwb::permute
