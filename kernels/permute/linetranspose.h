#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include <cuda_runtime.h>

#include "kernels/permute/permuteplan.h"
#include "kernels/permute/strideddims.h"

namespace kwb::permute {

// Permutations of bytes and halves whose rows start anywhere, as channels last to 40 planes:
// (1677721, 40) with (1, 0), or (230, 11080, 26) with (2, 1, 0). A block takes a segment of source
// rows (kLineSegmentBytes of each column: 128 rows of bytes, 64 of halves) of its tile's columns,
// or several, with the rows of kLineAboveBytes above them: where the tile holds whole rows they
// are one contiguous run, copied into shared memory as it lies; else each row's covering 16-byte
// words, rows a pitch apart that is congruent to the row stride mod 16, so every word stays
// aligned. Each lane then gathers one column of a segment down all its rows, an element a row (a
// warp reads neighbouring elements of a row: no bank conflicts), shifts it in registers to start
// on its destination sector and stages it, and 8 lanes store each column in whole 16-byte words.
// A tile of several segments loads the rows above only once: each segment's are the last of the
// one before, already in shared memory. A tile takes tileCols lanes a segment, but one that holds
// whole rows and would idle more than a quarter of them packs its lanes instead, its threads its
// columns times its segments: (1677721, 40) in 4 segments takes 160 threads, none idle.
inline constexpr int kLineSegmentBytes = 128;
inline constexpr int kLineAboveBytes = 32;

// Dimensions a column's or a matrix's index runs over, innermost first, each with its stride in
// the destination: a source column's dimensions, or the batch's.
using LineAxes = StridedDims<std::int32_t, kMaxDims, long long>;

// Any permutation of bytes or halves that moves the innermost dimension, as a batch of matrices:
// rows the destination's innermost dimension, columns every source dimension inside it (so a
// matrix is contiguous in the source), the batch every one outside it. A source column's rows are
// then contiguous in the destination, wherever its dimensions put it: (1677721, 40) with (1, 0)
// is 1677721 rows of 40 columns, each column's rows 1677721 bytes apart; (230, 11080, 26) with
// (2, 1, 0) 230 rows of 11080 x 26 columns.
struct LineLaunch {
  std::int64_t batch = 1;
  std::int64_t rows = 0;  // of a source matrix: the destination's columns
  std::int64_t cols = 0;
  int tileCols = 64;     // a tile's columns where it cuts rows; one holds whole rows where wider
  int segments = 1;      // a tile's rows in segments
  LineAxes columns{};    // where each source column's rows start in the destination
  LineAxes matrices{};   // where each matrix starts in the destination
  int elementBytes = 1;  // 1 or 2
  const void* src = nullptr;
  void* dst = nullptr;

  bool wholeRows() const { return cols <= tileCols; }
  std::int64_t tilesAcross() const { return (cols + tileCols - 1) / tileCols; }
  // Whether the tile packs its lanes, a lane a column of each segment, rather than taking
  // tileCols a segment: where it holds whole rows and those would idle more than a quarter of
  // its lanes, but for 17 to 31 columns, where two segments sharing a warp would read the same
  // columns in the same banks.
  bool packedRows() const {
    return wholeRows() && 4 * cols < 3 * std::int64_t{tileCols} && (cols <= 16 || cols >= 32);
  }
  std::int64_t segmentLanes() const { return packedRows() ? cols : tileCols; }
  // A block's threads, in whole warps.
  std::int64_t threads() const { return (segmentLanes() * segments + 31) / 32 * 32; }
  std::int64_t segmentRows() const { return kLineSegmentBytes / elementBytes; }
  std::int64_t tileRows() const { return segments * segmentRows(); }
  std::int64_t tilesDown() const { return (rows + tileRows() - 1) / tileRows(); }
  std::int64_t tiles() const { return batch * tilesAcross() * tilesDown(); }
};

// The permutation's lines; none where the innermost dimension stays, or a dimension exceeds 32
// bits.
std::optional<LineLaunch> lineLaunchFor(const Permutation& simplified);

// The narrowest tile that holds a source row, else the widest (128 columns of bytes, 64 of
// halves).
int lineTileColsFor(std::int64_t cols, int elementBytes);

// Packed tiles' threads and segments at most.
inline constexpr int kMaxLineRowThreads = 256;
inline constexpr int kMostLineRowSegments = 32;

// Segments where a launch leaves them to the kernel. Packed tiles take the count that fills the
// most lanes and rows (lanes past the last segment's last column, and rows past a matrix's end,
// idle), in up to kMaxLineRowFillThreads threads (one warp where a segment takes fewer lanes than
// a warp) and kMinLineRowTiles tiles or more, and of fills within 3 % the one nearest
// kLineRowThreads threads. H200, 64 MiB of u8 channels last, the fastest count of 1 to 8 (and 12
// to 32 for under 17 planes) against this one (us): 7 planes 68.8 against the same, 12 50.9
// (same), 16 41.7 (same), 33 46.0 against 46.6 (4 segments), 40 42.5 against 42.8 (4).
inline constexpr int kMaxLineRowFillThreads = 160;
inline constexpr std::int64_t kMinLineRowTiles = 1024;
inline constexpr int kLineRowThreads = 128;
// Other tiles take two segments where a tile of 64 bytes a row or fewer holds whole rows, they
// fill two segments' tiles within 5 % as well as one's, and the grid keeps kMinTwoSegmentTiles
// blocks, else one. H200, 64 MiB of channels last to 12 to 60 planes: 1.02 to 1.08x ((1677721,
// 40): 0.712 -> 0.769 of the copy ceiling), (466033, 36) 1.09x (1821 tiles), batches of 200 and
// 1000 rows 1.12-1.22x, of 300 0.91x; (174762, 24), 683 tiles, 0.94x; where tiles cut rows into
// covering words, (20000, 203) 0.92x and (2049, 2049) 0.92x, and in tiles of 128 whole columns,
// (932067, 72) 0.93x. Four segments lost to two on 15 of 17 cases (level on one, 1.006x on one).
inline constexpr std::int64_t kMinTwoSegmentTiles = 1024;
int lineSegmentsFor(std::int64_t batch, std::int64_t rows, std::int64_t cols, int tileCols,
                    int elementBytes);

// The permutation's lines where tile_cols and tile_rows are left to the kernel; none where lines
// take no such permutation or element.
std::optional<LineLaunch> defaultLineLaunch(const Permutation& simplified, int elementBytes);

// Whether a kernel is built for the launch's tile: packed, 1 to kMostLineRowSegments segments of
// at most kMaxLineRowThreads lanes; else 32, 64 or 128 columns of bytes (32 or 64 of halves) in
// 1, 2 or 4 segments, up to 256 threads, 64 KiB of shared memory and 128 bytes a tile row.
bool lineTileBuilt(const LineLaunch& launch);

// Shared memory a block of the launch takes: its loaded rows, or its lanes' staged columns.
std::size_t lineSharedBytes(const LineLaunch& launch);

// Sides a block's 32-bit arithmetic holds, and a grid of one block a tile.
bool linesFit(const LineLaunch& launch);

void launchLineTranspose(const LineLaunch& launch, cudaStream_t stream);

}  // namespace kwb::permute
