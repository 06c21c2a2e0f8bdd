// The packed permute: a tile of whole dimensions read in the source's order into shared memory
// and written in the destination's. Each thread works out where each of its positions in a
// tile lies once, in registers, so that moving a tile costs an add, a mask bit and two accesses
// an element on each side, whatever the rank.
#include <cstdint>
#include <type_traits>

#include "core/error.h"
#include "kernels/cudacheck.h"
#include "kernels/permute/fastdivider.h"
#include "kernels/permute/packedtranspose.h"
#include "kernels/units.cuh"

namespace kwb::permute {
namespace {

constexpr std::size_t kMaxSharedBytes = 48 * 1024;
constexpr int kMaxBlock = 512;
// A tile's shared indices, padding included (at most twice its elements), fit 15 bits: two of
// them share a register.
static_assert(2 * kMaxPackedVolume < (1 << 15));

template <typename Index>
struct Dims {
  int rank = 0;
  int extent[kMaxDims] = {};
  int sharedStride[kMaxDims] = {};
  Index stride[kMaxDims] = {};  // in the memory this order runs along
  int step[kMaxDims] = {};      // the block's size as digits of this order
  int split = -1;               // the split dimension's place in this order, or -1
};

// Tile and batch indices stay below 2^31 with 32-bit indices: they divide by multiplying.
template <typename Index>
using DividerOf = Divider<std::conditional_t<sizeof(Index) == 4, std::uint32_t, Index>>;

template <typename Index>
struct Batch {
  int rank = 0;
  DividerOf<Index> size[kMaxDims];
  Index srcStride[kMaxDims] = {}, dstStride[kMaxDims] = {};
};

// Tile t is chunk t % chunks of batch index t / chunks; every chunk holds `chunk` elements of the
// split dimension but the last, which holds `lastHeld`.
template <typename Index>
struct Args {
  Dims<Index> load, store;  // the tile's dimensions in the source's order and the destination's
  Batch<Index> batch;
  DividerOf<Index> chunks;
  Index chunk, tiles;
  int volume, lastHeld;
  Index splitSrcStride, splitDstStride;
};

// Digits of position p in one order, by division.
template <typename Index>
__device__ __forceinline__ void digitsOf(const Dims<Index>& d, int p, int (&digit)[kMaxDims]) {
#pragma unroll
  for (int k = 0; k < kMaxDims; ++k)
    if (k < d.rank) {
      const int q = p / d.extent[k];
      digit[k] = p - q * d.extent[k];
      p = q;
    }
}

// Offset and shared index of a position from its digits.
template <typename Index>
__device__ __forceinline__ void place(const Dims<Index>& d, const int (&digit)[kMaxDims],
                                      Index& offset, int& shared) {
  offset = 0;
  shared = 0;
#pragma unroll
  for (int k = 0; k < kMaxDims; ++k)
    if (k < d.rank) {
      offset += static_cast<Index>(digit[k]) * d.stride[k];
      shared += digit[k] * d.sharedStride[k];
    }
}

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

template <typename Index>
struct Bases {
  Index src, dst;  // where tile t starts in the source and the destination
  bool last;       // the split dimension's last chunk
};

template <typename Index>
__device__ __forceinline__ Bases<Index> basesOf(const Args<Index>& a, Index t) {
  const Index b = a.chunks.divide(t), c = t - b * a.chunks.divisor;
  const Index first = c * a.chunk;
  Bases<Index> at{first * a.splitSrcStride, first * a.splitDstStride, c + 1 == a.chunks.divisor};
  Index rest = b;
  for (int k = 0; k < a.batch.rank; ++k) {
    const Index q = a.batch.size[k].divide(rest), r = rest - q * a.batch.size[k].divisor;
    at.src += r * a.batch.srcStride[k];
    at.dst += r * a.batch.dstStride[k];
    rest = q;
  }
  return at;
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

template <typename Index>
Args<Index> argsOf(const PackedTiling& g, int block) {
  Args<Index> a;
  const auto fill = [&](Dims<Index>& d, const int* order, bool src) {
    d.rank = g.rank;
    int step = block;
    for (int m = 0; m < g.rank; ++m) {
      const PackedTiling::Axis& axis = g.axis[order[m]];
      d.extent[m] = axis.extent;
      d.sharedStride[m] = axis.sharedStride;
      d.stride[m] = static_cast<Index>(src ? axis.srcStride : axis.dstStride);
      d.step[m] = step % axis.extent;
      step /= axis.extent;
      if (order[m] == g.split) d.split = m;
    }
  };
  int sourceOrder[kMaxDims];
  for (int k = 0; k < g.rank; ++k) sourceOrder[k] = k;
  fill(a.load, sourceOrder, true);
  fill(a.store, g.dstOrder, false);
  a.batch.rank = g.batchRank;
  for (int k = 0; k < g.batchRank; ++k) {
    a.batch.size[k] = DividerOf<Index>(static_cast<Index>(g.batch[k].size));
    a.batch.srcStride[k] = static_cast<Index>(g.batch[k].srcStride);
    a.batch.dstStride[k] = static_cast<Index>(g.batch[k].dstStride);
  }
  a.volume = g.volume;
  // Without a split dimension each batch index is one tile, a chunk of 1 that holds it whole.
  const bool split = g.split >= 0;
  a.chunk = static_cast<Index>(split ? g.axis[g.split].extent : 1);
  a.splitSrcStride = static_cast<Index>(split ? g.axis[g.split].srcStride : 0);
  a.splitDstStride = static_cast<Index>(split ? g.axis[g.split].dstStride : 0);
  const std::int64_t size = split ? g.axis[g.split].size : 1;
  a.lastHeld = static_cast<int>(size - (g.chunks - 1) * a.chunk);
  a.chunks = DividerOf<Index>(static_cast<Index>(g.chunks));
  a.tiles = static_cast<Index>(g.tiles());
  return a;
}

template <typename T, int K, typename Index>
void launchWith(const PackedLaunch& l, cudaStream_t stream) {
  packedKernel<T, K, Index><<<l.grid, l.block, l.sharedBytes(), stream>>>(
      static_cast<const T*>(l.src), static_cast<T*>(l.dst), argsOf<Index>(l.tiling, l.block));
  KWB_CHECK_LAUNCH("packedKernel");
}

template <typename T, typename Index>
void launchIndexed(const PackedLaunch& l, cudaStream_t stream) {
  switch (l.perThread()) {
    case 1: return launchWith<T, 1, Index>(l, stream);
    case 2: return launchWith<T, 2, Index>(l, stream);
    case 4: return launchWith<T, 4, Index>(l, stream);
    case 8: return launchWith<T, 8, Index>(l, stream);
    default: break;
  }
  throw Error(ErrorKind::Internal, "packed permute: " + std::to_string(l.perThread()) +
                                       " positions a thread for a tile of " +
                                       std::to_string(l.tiling.volume) + " and blocks of " +
                                       std::to_string(l.block));
}

}  // namespace

void launchPacked(const PackedLaunch& l, cudaStream_t stream) {
  if (l.sharedBytes() > kMaxSharedBytes || l.block > kMaxBlock)
    throw Error(ErrorKind::Internal, "packed permute: a " + l.tiling.describe() + " needs " +
                                         std::to_string(l.sharedBytes()) +
                                         " bytes of shared memory, blocks of " +
                                         std::to_string(l.block));
  withUnit<8>(l.elementBytes, "packed permute", [&](auto element) {
    using T = decltype(element);
    if (l.index32) return launchIndexed<T, std::int32_t>(l, stream);
    launchIndexed<T, std::int64_t>(l, stream);
  });
}

}  // namespace kwb::permute
