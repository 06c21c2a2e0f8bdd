#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

namespace kwb::permute {

// Byte transposes whose rows start anywhere, as channels last to 40 planes: (1677721, 40) with
// (1, 0). A block takes kLineRows source rows of up to `tileCols` columns, with the kLineAbove
// rows above them: each row's covering 16-byte words are copied into shared memory as they are,
// rows a pitch apart that is congruent to the row stride mod 16, so every word stays aligned.
// Each lane then gathers one column down all the rows, a byte a row (a warp reads 32 neighbouring
// bytes of one row: no bank conflicts), shifts it in registers to start on its destination
// sector and stages it, and 8 lanes store each column in whole 16-byte words. A tile of several
// segments of kLineRows rows loads the rows above only once: each segment's are the last of the
// one before, already in shared memory.
inline constexpr int kLineRows = 128;
inline constexpr int kLineAbove = 32;

struct LineLaunch {
  std::int64_t batch = 1;
  std::int64_t rows = 0;  // of a source matrix: the destination's columns
  std::int64_t cols = 0;
  int tileCols = 64;  // a lane a column of each segment
  int segments = 1;   // of kLineRows rows: a tile's rows, and its threads, tileCols a segment
  const void* src = nullptr;
  void* dst = nullptr;

  std::int64_t tilesAcross() const { return (cols + tileCols - 1) / tileCols; }
  std::int64_t tileRows() const { return std::int64_t{segments} * kLineRows; }
  std::int64_t tilesDown() const { return (rows + tileRows() - 1) / tileRows(); }
  std::int64_t tiles() const { return batch * tilesAcross() * tilesDown(); }
};

// The narrowest tile that holds a source row, else the widest.
int lineTileColsFor(std::int64_t cols);

// Segments where a launch leaves them to the kernel: two where a tile of 64 columns or fewer
// holds whole rows, they fill two segments' tiles within 5 % as well as one's, and the grid
// keeps kMinTwoSegmentTiles blocks, else one. H200, 64 MiB of channels last to 12 to 60 planes:
// 1.02 to 1.08x ((1677721, 40): 0.712 -> 0.769 of the copy ceiling), (466033, 36) 1.09x
// (1821 tiles), batches of 200 and 1000 rows 1.12-1.22x, of 300 0.91x; (174762, 24), 683
// tiles, 0.94x; where tiles cut rows into covering words, (20000, 203) 0.92x and (2049, 2049)
// 0.92x, and in tiles of 128 whole columns, (932067, 72) 0.93x. Four segments lost to two on 15
// of 17 cases (level on one, 1.006x on one).
inline constexpr std::int64_t kMinTwoSegmentTiles = 1024;
int lineSegmentsFor(std::int64_t batch, std::int64_t rows, std::int64_t cols, int tileCols);

// A transpose's launch where tile_cols and tile_rows are left to the kernel.
LineLaunch defaultLineLaunch(std::int64_t batch, std::int64_t rows, std::int64_t cols);

// Whether a kernel is built for tiles of these columns and segments.
bool lineTileBuilt(int tileCols, int segments);

// Shared memory a block of the launch takes: its loaded rows, or its lanes' staged columns.
std::size_t lineSharedBytes(const LineLaunch& launch);

// Sides a block's 32-bit arithmetic holds, and a grid of one block a tile.
bool linesFit(const LineLaunch& launch);

void launchLineTranspose(const LineLaunch& launch, cudaStream_t stream);

}  // namespace kwb::permute
