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
// rows (kLineSegmentBytes of each column: 128 rows of bytes, 64 of halves) of up to `tileCols`
// columns, with the rows of kLineAboveBytes above them: each row's covering 16-byte words are
// copied into shared memory as they are, rows a pitch apart that is congruent to the row stride mod
// 16, so every word stays aligned. Each lane then gathers one column down all the rows, an element
// a row (a warp reads 32 neighbouring elements of one row: no bank conflicts), shifts it in
// registers to start on its destination sector and stages it, and 8 lanes store each column in
// whole 16-byte words. A tile of several segments loads the rows above only once: each segment's
// are the last of the one before, already in shared memory.
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
  int tileCols = 64;     // a lane a column of each segment
  int segments = 1;      // a tile's rows in segments, and its threads: tileCols a segment
  LineAxes columns{};    // where each source column's rows start in the destination
  LineAxes matrices{};   // where each matrix starts in the destination
  int elementBytes = 1;  // 1 or 2
  const void* src = nullptr;
  void* dst = nullptr;

  std::int64_t tilesAcross() const { return (cols + tileCols - 1) / tileCols; }
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

// Segments where a launch leaves them to the kernel: two where a tile of 64 bytes a row or fewer
// holds whole rows, they fill two segments' tiles within 5 % as well as one's, and the grid
// keeps kMinTwoSegmentTiles blocks, else one. H200, 64 MiB of channels last to 12 to 60 planes:
// 1.02 to 1.08x ((1677721, 40): 0.712 -> 0.769 of the copy ceiling), (466033, 36) 1.09x
// (1821 tiles), batches of 200 and 1000 rows 1.12-1.22x, of 300 0.91x; (174762, 24), 683
// tiles, 0.94x; where tiles cut rows into covering words, (20000, 203) 0.92x and (2049, 2049)
// 0.92x, and in tiles of 128 whole columns, (932067, 72) 0.93x. Four segments lost to two on 15
// of 17 cases (level on one, 1.006x on one).
inline constexpr std::int64_t kMinTwoSegmentTiles = 1024;
int lineSegmentsFor(std::int64_t batch, std::int64_t rows, std::int64_t cols, int tileCols,
                    int elementBytes);

// The permutation's lines where tile_cols and tile_rows are left to the kernel; none where lines
// take no such permutation or element.
std::optional<LineLaunch> defaultLineLaunch(const Permutation& simplified, int elementBytes);

// Whether a kernel is built for tiles of these columns and segments of these elements: up to 4
// segments, 256 threads, 64 KiB of shared memory and 128 bytes a tile row.
bool lineTileBuilt(int tileCols, int segments, int elementBytes);

// Shared memory a block of the launch takes: its loaded rows, or its lanes' staged columns.
std::size_t lineSharedBytes(const LineLaunch& launch);

// Sides a block's 32-bit arithmetic holds, and a grid of one block a tile.
bool linesFit(const LineLaunch& launch);

void launchLineTranspose(const LineLaunch& launch, cudaStream_t stream);

}  // namespace kwb::permute
