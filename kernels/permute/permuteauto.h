#pragma once

#include <cstdint>
#include <optional>

#include "core/deviceinfo.h"
#include "kernels/permute/generaltiling.h"
#include "kernels/permute/matrixorder.h"
#include "kernels/permute/permuteplan.h"

namespace kwb::permute {

// The permute variants; auto picks one of the others for each permutation.
enum class Kind {
  Naive,
  Simplified,
  Movement,
  Tiled,
  TiledPairs,
  TiledWide,
  Narrow,
  General,
  Packed,
  Planes,
  Lines,
  Auto
};

// auto's tiles: transposes whose sides are both at least kMinTiledSide long (OneFlow's tile
// size) take 64-element tiles with 8 rows of threads where both sides fill one, else 32.
inline constexpr int kMinTiledSide = 32;

// The narrow kernel's accesses by default: 16 bytes from 16-byte boundaries, where planes of an
// odd width or an offset source start runs inside them, shifted into place. Its transposes moved
// 1.04 to 2.4x faster than in the widest whole vectors the planes allowed (14128181 x 19 u8:
// 2333 GB/s against 990 in single bytes; 22369621 x 6 f16 2885 against 1864 in single halves;
// 13421773 x 5 f32 2973 against 2812), and as fast where those were 16 bytes wide (within 1 %;
// H100). In 16-byte vectors, swizzled where that pays, the planar side meets 4 words a bank or
// fewer for 2 to 64 planes of any element size.
inline constexpr int kNarrowVectorBytes = 16;
inline constexpr int kNarrowBlock = 256;

// The narrow kernel keeps a chunk of every plane in shared memory; past this many planes the
// chunks get too short for whole vectors to pay.
inline constexpr std::int64_t kMaxNarrow = 64;

// The planes kernel holds a plane in a block's shared memory: at most this many bytes of it, in
// blocks of kPlaneBlock threads by default (blocks of 128 holding (84, 100) bytes moved 1.2x as
// fast as blocks of 256, H100).
inline constexpr std::int64_t kMaxPlaneBytes = 48 * 1024;
inline constexpr int kPlaneBlock = 128;

// `batch` row-major rows x cols matrices: the 2-D (1,0) or batched (0,2,1) transposes.
struct BatchTranspose {
  std::int64_t batch = 1, rows = 0, cols = 0;
};

std::optional<BatchTranspose> asBatchTranspose(const Permutation& s);

// A batched transpose whose destination may also reorder the matrices: perm (..., n-1, n-2) with
// the first n-2 dimensions in any order, as (1, 0, 3, 2). `order` is empty for asBatchTranspose's.
struct ReorderedTranspose {
  BatchTranspose t;
  MatrixOrder<std::int64_t> order;
};

std::optional<ReorderedTranspose> asReorderedTranspose(const Permutation& s);

bool innermostMoves(const Permutation& s);

// A permutation that keeps its innermost dimension, in units of whole rows where a row is 2, 4
// or 8 bytes and the source starts on one: the rows move as elements, and the innermost
// dimension of what is left moves, so tiles can take it.
struct Rows {
  Permutation perm;
  int bytes = 0;
};

std::optional<Rows> asRows(const Permutation& s, int bytes, std::int64_t sourceOffsetBytes);

// The same in rows of any length up to kMaxByteRowBytes, from any source offset: general tiles
// then move them as units of their bytes (byteRows).
std::optional<Rows> asByteRows(const Permutation& s, int bytes);

// Bytes of rows a tile of byteRows holds at most.
inline constexpr int kByteRowTileBytes = 16 * 1024;

// General tiles of rows of `rowBytes`: as many as a tile's bytes hold, in a power of two, as tall
// as source rows of kMinByteRowRunBytes or the in group's extent leave them. A column's run stores
// in part at either end while a row reads whole words past its ends, so long columns waste less:
// (370, 25, 126, 57) with (2, 1, 0, 3) in u8 moved 1.14x as fast in tiles 64 tall and 4 wide as in
// tiles 4 tall and 64 wide (H200).
inline constexpr int kMinByteRowRunBytes = 128;
GeneralTiling byteRowTiling(const Permutation& rows, int rowBytes);

// General tiles of a permutation, in the tile size for its element size, groups of units of 4
// bytes or more grown until they fill most of their tiles.
GeneralTiling tilingOf(const Permutation& s, int bytes);

// Cells' tiles, larger than the elements' ones, with groups as long as their sides and filling
// most of the tiles they cover: (72, 6, 10, 62137) with (2, 3, 1, 0) takes columns of 6 x 72
// instead of 72 (811 -> 1783 GB/s, u8, H100).
GeneralTiling cellTiling(const Permutation& s, int bytes);

enum class Access { Elements, Words, Cells };

// How auto has general tiles move their units.
Access autoAccess(const Permutation& s, const GeneralTiling& g, int bytes,
                  std::int64_t sourceOffsetBytes);

// The kernel auto takes for a simplified permutation of `bytes`-byte elements whose source starts
// sourceOffsetBytes into its allocation.
Kind autoKind(const Permutation& s, int bytes, std::int64_t sourceOffsetBytes,
              const DeviceInfo& device);

}  // namespace kwb::permute
