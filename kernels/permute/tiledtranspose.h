#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "kernels/permute/cell.h"
#include "kernels/permute/tileorder.h"

namespace kwb::permute {

// A batch of row-major rows x cols matrices, each written transposed (cols x rows): the 2-D
// (1,0) and batched (0,2,1) permutations after simplification.
struct TiledLaunch {
  std::int64_t batch = 1;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  int elementBytes = 4;
  int tile = 32;         // tile edge in elements: 16, 32 or 64
  int rowsPerBlock = 8;  // threads in y; each walks tile / rowsPerBlock rows
  bool padding = true;   // one spare column per tile row keeps column reads off a single bank
  bool pairs = false;    // 16-bit elements moved two at a time (needs even rows and cols)
  // Elements in cells of 8-byte rows (8 x 8 bytes, 4 x 4 halves, 2 x 2 floats) or 16-byte ones (2
  // x 2 doubles): cellsAcross cells across a tile and 16 * cellsPerThread down; rows and cols
  // whole cells, the source aligned to a row. tile is then the tile's width in elements,
  // cellsAcross * cell::side. Aligned stores take cells of 8-byte rows.
  bool cells = false;
  int cellsAcross = 16;    // 16 or 32
  int cellsPerThread = 1;  // 1, 2 or 4, as the tile fits in a block's shared memory
  // Each destination row's stores shifted to start on the destination's window boundaries, for
  // destination rows that do not: a block reads kAlignedTall windows' worth of rows down a column
  // and one window above them. A window is a tile's width of elements, or with cells and pairs
  // 128 bytes of their words (8 bytes a cell's row, 4 a pair); those take tiles of
  // kAlignedCellRows destination rows.
  bool alignedStores = false;
  static constexpr int kAlignedTall = 4, kAlignedWindowBytes = 128, kAlignedCellRows = 64;
  TileOrder order = TileOrder::Source;
  bool index32 = true;
  int grid = 1;
  const void* src = nullptr;
  void* dst = nullptr;

  // Source rows a tile spans: its height.
  int tileRows() const {
    return cells ? cell::kThreadRows * cellsPerThread * cell::side(elementBytes) : tile;
  }
  // Tall tiles down a column with aligned stores, else tiles.
  std::int64_t tallRows() const {
    return alignedStores ? (alignedSteps() + kAlignedTall - 1) / kAlignedTall
                         : (rows + tileRows() - 1) / tileRows();
  }
  // Tiles across a matrix's columns.
  std::int64_t tileCols() const { return (cols + tile - 1) / tile; }
  std::int64_t tiles() const { return batch * tallRows() * tileCols(); }
  // Aligned stores: the windows of a destination row, the one ending in each tile of a column,
  // and one more for what a shift carries past its last tile.
  std::int64_t alignedSteps() const {
    return (alignedUnits() + 2 * alignedWindow() - 2) / alignedWindow();
  }
  // A destination row's units with aligned stores (elements, or words of cells and pairs), and
  // their window.
  std::int64_t alignedUnits() const {
    return cells ? rows / cell::side(elementBytes) : pairs ? rows / 2 : rows;
  }
  int alignedWindow() const {
    return cells ? kAlignedWindowBytes / 8 : pairs ? kAlignedWindowBytes / 4 : tile;
  }
  int threadsPerBlock() const {
    if ((cells || pairs) && alignedStores) return 256;
    if (cells) return cellsAcross * cell::kThreadRows;
    return (pairs ? tile / 2 : tile) * rowsPerBlock;
  }
};

// Whether aligned stores in tiles of `tile` take each column of `rows` source rows in one tall
// tile that they fill more than half: no window above a tall tile read again, no tall tile mostly
// empty. Planes to channels last with 67 to 95 planes of 4- and 8-byte elements moved 0.88 to
// 1.02 of the copy ceiling that way in tiles of 32, against 0.51 to 0.85 in tiles of 16, plain
// tiles or packed tiles (H100, 56 to 133 MiB).
inline bool alignedTallTileHoldsColumn(std::int64_t rows, int tile) {
  TiledLaunch l;
  l.rows = rows;
  l.tile = tile;
  l.alignedStores = true;
  return l.alignedSteps() <= TiledLaunch::kAlignedTall &&
         2 * rows > static_cast<std::int64_t>(TiledLaunch::kAlignedTall) * tile;
}

// Aligned stores' tile for elements of 4 or 8 bytes: 32 wide for 4-byte elements, 16 for 8-byte
// ones, so that each warp's store is 128 bytes of one row, but 32 where one tall tile of 32 holds
// each column.
inline int alignedTileFor(std::int64_t rows, int bytes) {
  return bytes < 8 || alignedTallTileHoldsColumn(rows, 32) ? 32 : 16;
}

void launchTiledTranspose(const TiledLaunch& launch, cudaStream_t stream);

}  // namespace kwb::permute
