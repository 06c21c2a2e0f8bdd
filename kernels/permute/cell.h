#pragma once

// Cells of 8-byte rows (8 x 8 bytes, 4 x 4 halves, 2 x 2 floats): the unit tiled_wide moves 1-,
// 2- and 4-byte elements in and general tiles 1- and 2-byte ones, each cell transposed in
// registers.
namespace kwb::permute::cell {

inline constexpr int kThreadRows = 16;           // rows of threads of a block of cells
inline constexpr int kMaxTileBytes = 48 * 1024;  // a block's shared memory without opting in

// Elements along a cell's side.
constexpr int side(int elementBytes) {
  return 8 / elementBytes;
}

// The shared memory a tile of `across` cells by kThreadRows * perThread takes.
constexpr int tileBytes(int elementBytes, int across, int perThread) {
  return across * side(elementBytes) * kThreadRows * perThread * 8;
}

}  // namespace kwb::permute::cell
