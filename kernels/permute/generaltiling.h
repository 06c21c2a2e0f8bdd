#pragma once

#include <cstdint>
#include <string>

#include "kernels/permute/permuteplan.h"

namespace kwb::permute {

// DRAM and L2 move global memory in sectors of this many bytes.
inline constexpr std::int64_t kSectorBytes = 32;

// The share of the tiles of `side` units covering `extent` units that the extent fills.
inline double fillOf(std::int64_t extent, int side) {
  const std::int64_t tiles = (extent + side - 1) / side;
  return static_cast<double>(extent) / static_cast<double>(tiles * side);
}

// The least power of two that is n or more, at most cap.
int powerOfTwoAtLeast(std::int64_t n, int cap);

// A permutation whose innermost dimension moves, as one tiled transpose of two groups of
// dimensions, whatever its rank: the source's innermost dimensions (the "in" group, contiguous
// in the source) against the destination's innermost ones (the "out" group, contiguous in the
// destination), each taken until it spans a tile or meets the other group; the rest are the
// batch. A tile is `tileOut` rows of the out group by `tileIn` columns of the in group: read a
// row at a time from the source, written a column at a time to the destination, each access
// running along contiguous memory. Axes are listed innermost first in each group.
struct GeneralTiling {
  using Axis = StridedAxis;
  int inRank = 0, outRank = 0, batchRank = 0;
  Axis in[kMaxDims], out[kMaxDims], batch[kMaxDims];
  std::int64_t inExtent = 1, outExtent = 1, batchExtent = 1;
  int tileIn = 1, tileOut = 1;  // powers of two

  std::int64_t tilesIn() const { return (inExtent + tileIn - 1) / tileIn; }
  std::int64_t tilesOut() const { return (outExtent + tileOut - 1) / tileOut; }
  std::int64_t tiles() const { return batchExtent * tilesIn() * tilesOut(); }
  // The share of its tiles' columns (rows) the in (out) group fills.
  double inFill() const { return fillOf(inExtent, tileIn); }
  double outFill() const { return fillOf(outExtent, tileOut); }
  // "in 2 x 4096 | out 3 x 4096 | batch 1": each group's sizes, innermost first.
  std::string describe() const;
};

// Elements in one tile: 16 KiB of f32, and of f64 in half as many, so that with its spare
// column and its row and column offsets a tile stays within the 48 KiB a block may take
// without opting in, whatever its shape.
inline constexpr int kGeneralTileElements = 4096;
inline int generalTileElements(int elementBytes) {
  return elementBytes > 4 ? kGeneralTileElements / 2 : kGeneralTileElements;
}

// A square-ish tile's side: groups grow until they span it, the shorter sets its side of the tile.
inline constexpr int kGroupSpan = 64;

// For a simplified permutation whose innermost dimension moves (perm.back() != rank - 1). The
// groups grow until they span inSpan and outSpan elements (a tile of cells' sides, where they
// are known to be larger) and fill at least minFill of the whole spans they cover, or take every
// dimension they may.
GeneralTiling generalTiling(const Permutation& simplified, int tileElements = kGeneralTileElements,
                            int inSpan = kGroupSpan, int outSpan = kGroupSpan, double minFill = 0);

// The rows of a tile tileIn units wide: the rest of tileElements, or the out group's extent in
// a power of two where that is less.
int tileRowsFor(const GeneralTiling& g, int tileIn, int tileElements);

// For units of `bytes` moved one at a time, where the tile's rows start anywhere in a sector:
// the tile's sides (powers of two, as many units together as before, each kMinRunBytes or more or
// its whole group) whose tiles the groups fill best, where that fills kMinFillGain more of them.
// A part-filled tile costs its barriers and offsets for fewer bytes, and where rows straddle
// sectors its short runs touch a sector more each. H100, auto before and after: (4, 26, 1000, 66)
// with (0, 3, 2, 1) in f64, tiles 64 wide filled 52 %, 16 wide 83 %: 1.06x; (12, 14, 736, 11, 6)
// with (3, 1, 4, 2, 0) in f64 1.05x (0.87 -> 0.91 of the copy ceiling). Where rows start on
// sectors, fuller tiles that cut rows into more runs lost: (2, 1, 300, 4, 96, 44) with (5, 3, 0,
// 2, 4, 1) in f64, in tiles 16 wide filled 92 % against 64 wide filled 69 %, 0.96x.
inline constexpr double kMinFillGain = 1.05;
inline constexpr int kMinRunBytes = 128;
void fitTileSides(GeneralTiling& g, int bytes, int tileElements);

// Where element (o, i) of tile `t` lives: the offsets the kernel computes, for the CPU to check.
struct TileElement {
  bool inside = false;  // the tile may run past a group's extent
  std::int64_t src = 0, dst = 0;
};
TileElement tileElement(const GeneralTiling& g, std::int64_t tile, int o, int i);

}  // namespace kwb::permute
