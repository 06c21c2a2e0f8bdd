#pragma once

// What every general tiled kernel shares: a launch's groups as the device reads them, where a
// tile lies, and its rows' and columns' offsets.
#include <cstdint>

#include <cuda_runtime.h>

#include "kernels/permute/generaltiled.h"
#include "kernels/permute/generaltiling.h"
#include "kernels/permute/strideddims.h"

namespace kwb::permute::tile {

// A group's strides are in the memory it is not contiguous in.
template <typename Index>
using Group = StridedDims<Index, kMaxDims>;

template <typename Index>
struct Args {
  Group<Index> in;   // destination strides
  Group<Index> out;  // source strides
  Group<Index> batchSrc, batchDst;
  Index inExtent, outExtent, tilesIn, tilesOut, tiles;
  int inShift, outShift;  // log2 of the tile's sides
  bool byDestination;     // tiles one after another along the out group, else the in group
  // The tile counts along the group whose tiles the grid takes one after another, and along the
  // other group: what a tile's index is divided by.
  DividerOf<Index> tilesFirst, tilesSecond;
};

template <typename Index>
struct TileStart {
  Index in0, out0;  // the tile's first column and row
};

// Where tile t lies, and each of its rows' source offsets (and `rowsBefore` rows' before it) and
// columns' destination offsets in shared memory, worked out once by the block for every element
// of the tile.
template <typename Index>
__device__ __forceinline__ TileStart<Index> startTile(const Args<Index>& a, Index t, Index* srcRow,
                                                      Index* dstCol, int rowsBefore = 0) {
  const Index rest = quotientOf(t, a.tilesFirst);
  const Index b = quotientOf(rest, a.tilesSecond);
  const Index major = rest - b * static_cast<Index>(a.tilesSecond.divisor);
  const Index minor = t - rest * static_cast<Index>(a.tilesFirst.divisor);
  const Index in0 = (a.byDestination ? major : minor) << a.inShift;
  const Index out0 = (a.byDestination ? minor : major) << a.outShift;
  const auto base = a.batchSrc.offsetsOf(b, a.batchDst.stride);
  // srcRow[k] is row out0 - rowsBefore + k; those outside the group are never read.
  for (int k = threadIdx.x; k < (1 << a.outShift) + rowsBefore; k += blockDim.x) {
    const Index o = out0 - rowsBefore + k;
    srcRow[k] = base.own + (o < 0 || o >= a.outExtent ? 0 : a.out.offsetOf(o));
  }
  for (int k = threadIdx.x; k < (1 << a.inShift); k += blockDim.x) {
    const Index i = in0 + k;
    dstCol[k] = base.other + (i < a.inExtent ? a.in.offsetOf(i) : 0);
  }
  __syncthreads();
  return {in0, out0};
}

// The columns and rows of the tile at (in0, out0) that lie inside the groups.
struct TileSides {
  int cols, rows;
};

template <typename Index>
__device__ __forceinline__ TileSides tileSides(const Args<Index>& a, Index in0, Index out0) {
  return {static_cast<int>(min(static_cast<Index>(1 << a.inShift), a.inExtent - in0)),
          static_cast<int>(min(static_cast<Index>(1 << a.outShift), a.outExtent - out0))};
}

// A tensor at `p` as the shifted kernels take it: the aligned Word holding its first element,
// and how many elements of `elementBytes` into that word it starts.
template <typename Word>
struct WordStart {
  Word* word;
  int head;
};
template <typename Word, typename Void>
WordStart<Word> wordStart(Void* p, int elementBytes) {
  const std::uintptr_t address = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t into = address % sizeof(Word);
  return {reinterpret_cast<Word*>(address - into), static_cast<int>(into) / elementBytes};
}

inline int log2Of(int powerOfTwo) {
  int shift = 0;
  while ((1 << shift) < powerOfTwo) ++shift;
  return shift;
}

template <typename Index>
Args<Index> argsOf(const GeneralLaunch& l) {
  const GeneralTiling& g = l.tiling;
  Args<Index> a;
  const auto fill = [](Group<Index>& group, const GeneralTiling::Axis* axes, int rank, bool src) {
    group.rank = rank;
    for (int k = 0; k < rank; ++k) {
      group.size[k] = DividerOf<Index>(static_cast<Index>(axes[k].size));
      group.stride[k] = static_cast<Index>(src ? axes[k].srcStride : axes[k].dstStride);
    }
  };
  fill(a.in, g.in, g.inRank, false);
  fill(a.out, g.out, g.outRank, true);
  fill(a.batchSrc, g.batch, g.batchRank, true);
  fill(a.batchDst, g.batch, g.batchRank, false);
  a.inExtent = static_cast<Index>(g.inExtent);
  a.outExtent = static_cast<Index>(g.outExtent);
  a.tilesIn = static_cast<Index>(g.tilesIn());
  a.tilesOut = static_cast<Index>(g.tilesOut());
  a.tiles = static_cast<Index>(g.tiles());
  a.inShift = log2Of(g.tileIn);
  a.outShift = log2Of(g.tileOut);
  a.byDestination = l.order == TileOrder::Destination;
  a.tilesFirst = DividerOf<Index>(a.byDestination ? a.tilesOut : a.tilesIn);
  a.tilesSecond = DividerOf<Index>(a.byDestination ? a.tilesIn : a.tilesOut);
  return a;
}

}  // namespace kwb::permute::tile

namespace kwb::permute {

// launchGeneralTiled's cells, aligned or shifted into place.
void launchGeneralCells(const GeneralLaunch& launch, cudaStream_t stream);

}  // namespace kwb::permute
