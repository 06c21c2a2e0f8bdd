#pragma once

// Cells of 8-byte rows (8 x 8 bytes, 4 x 4 halves, 2 x 2 floats) and of 16-byte ones (2 x 2
// doubles): the unit tiled_wide moves elements in and general tiles 1- and 2-byte ones, each
// cell transposed in registers.
namespace kwb::permute::cell {

inline constexpr int kThreadRows = 16;           // rows of threads of a block of cells
inline constexpr int kMaxTileBytes = 48 * 1024;  // a block's shared memory without opting in

// A cell's row: 8 bytes, 16 for 8-byte elements (2 x 2 doubles, in tiled_wide alone).
constexpr int rowBytes(int elementBytes) {
  return elementBytes == 8 ? 16 : 8;
}

// Elements along a cell's side.
constexpr int side(int elementBytes) {
  return rowBytes(elementBytes) / elementBytes;
}

// The shared memory a tile of `across` cells by kThreadRows * perThread takes.
constexpr int tileBytes(int elementBytes, int across, int perThread) {
  return across * side(elementBytes) * kThreadRows * perThread * rowBytes(elementBytes);
}

}  // namespace kwb::permute::cell
