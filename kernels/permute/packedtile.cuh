// What the packed kernels share: a tile's dimensions in either order, where each tile starts,
// and the arguments built from a PackedTiling.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "kernels/permute/fastdivider.h"
#include "kernels/permute/packedtiling.h"
#include "kernels/permute/strideddims.h"

namespace kwb::permute::packed {

template <typename Index>
struct Dims {
  int rank = 0;
  int extent[kMaxDims] = {};
  int sharedStride[kMaxDims] = {};
  Index stride[kMaxDims] = {};  // in the memory this order runs along
  int step[kMaxDims] = {};      // the block's size as digits of this order
  int split = -1;               // the split dimension's place in this order, or -1
};

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
      const int q = quotientOf(p, d.extent[k]);
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

// A launch's arguments for blocks of `block` threads.
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

// Blocks of `kernel` an SM holds at once in blocks of `block` threads, 0 where no device answers
// (a plan made without one).
template <typename Kernel>
int residentBlocks(Kernel kernel, int block, std::size_t sharedBytes) {
  int blocks = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block, sharedBytes) !=
      cudaSuccess) {
    cudaGetLastError();  // the answer, not an error for the next call to find
    return 0;
  }
  return blocks;
}

}  // namespace kwb::permute::packed
