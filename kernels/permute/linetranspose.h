#pragma once

#include <cstdint>

#include <cuda_runtime.h>

namespace kwb::permute {

// Byte transposes whose rows start anywhere, as channels last to 40 planes: (1677721, 40) with
// (1, 0). A block takes kLineRows source rows of up to `tileCols` columns, with the kLineAbove
// rows above them: each row's covering 16-byte words are copied into shared memory as they are,
// rows a pitch apart that is congruent to the row stride mod 16, so every word stays aligned.
// Each lane then gathers one column down all the rows, a byte a row (a warp reads 32 neighbouring
// bytes of one row: no bank conflicts), shifts it in registers to start on its destination
// sector and stages it, and 8 lanes store each column in whole 16-byte words.
inline constexpr int kLineRows = 128;
inline constexpr int kLineAbove = 32;

struct LineLaunch {
  std::int64_t batch = 1;
  std::int64_t rows = 0;  // of a source matrix: the destination's columns
  std::int64_t cols = 0;
  int tileCols = 64;  // threads a block too: a lane a column
  const void* src = nullptr;
  void* dst = nullptr;

  std::int64_t tilesAcross() const { return (cols + tileCols - 1) / tileCols; }
  std::int64_t tilesDown() const { return (rows + kLineRows - 1) / kLineRows; }
  std::int64_t tiles() const { return batch * tilesAcross() * tilesDown(); }
};

// The narrowest tile that holds a source row, else the widest.
int lineTileColsFor(std::int64_t cols);

// Sides a block's 32-bit arithmetic holds, and a grid of one block a tile.
bool linesFit(const LineLaunch& launch);

void launchLineTranspose(const LineLaunch& launch, cudaStream_t stream);

}  // namespace kwb::permute
