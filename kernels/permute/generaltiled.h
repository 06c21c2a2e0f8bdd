#pragma once

#include <cuda_runtime.h>

#include "kernels/permute/cell.h"
#include "kernels/permute/generaltiling.h"
#include "kernels/permute/tileorder.h"

namespace kwb::permute {

// Shared memory a block of general tiles may take without opting in to more.
inline constexpr std::size_t kMaxGeneralSharedBytes = 48 * 1024;

// Rows either side of a tile's that byteRows's windows at a run's ends may read (8 units of 2
// bytes, and a part past them), set to a place whose bytes are never stored.
inline constexpr int kSpareByteRows = 16;

// The longest rows byteRows moves as units, 32 of them to a tile of kByteRowTileBytes.
inline constexpr int kMaxByteRowBytes = 512;

// One launch of the general tiled permute: any rank, any element size, the innermost dimension
// moving.
struct GeneralLaunch {
  GeneralTiling tiling;
  int elementBytes = 4;
  // 1- and 2-byte elements moved as 4-byte words: read along the source's rows, and written
  // along the destination's after a transpose of 4 x 4 bytes (or 2 x 2 halves) in registers.
  // Needs both groups' extents to be whole words and the source word-aligned.
  bool words = false;
  // 1- and 2-byte elements moved in cells of 8-byte rows, as tiled_wide moves them; where the
  // groups' extents are no whole cells or the source is not 8-byte aligned, each row shifted into
  // place (the source's buffer must then end on an 8-byte boundary). The tiling's tile is then
  // cellTileIn x cellTileOut.
  bool cells = false;
  // 1- and 2-byte elements in 4-byte words where rows start anywhere: each row read in the
  // aligned words that cover it and shifted into place, each column stored in aligned words
  // (elements one at a time at its ends). The source's buffer must end on a word boundary,
  // which the last row's aligned words may reach. Needs tile sides of a word or more.
  bool shifted = false;
  // Where columns' destination runs start anywhere in a 32-byte sector, for elements of 4 bytes
  // or more and for cells: each column is written from the sector boundary at or before its
  // tile's first row, the block reading the rows before its tile that this takes (rowsBefore(),
  // or the cells above its tile).
  bool alignedStores = false;
  // Units of elementBytes of any length, 2 to kMaxByteRowBytes: rows that stay innermost, of a
  // length no element size gives (15 bytes of u8, 5 halves). Each tile row is read in the aligned
  // 8-byte words that cover it and each column's destination run is put together from the
  // units' bytes in aligned 16-byte windows (launchGeneralRows).
  bool byteRows = false;
  TileOrder order = TileOrder::Source;
  bool index32 = true;
  int block = 256;
  int grid = 1;
  const void* src = nullptr;
  void* dst = nullptr;

  // A tile of cells: 16 cells across for bytes, 32 for halves (each a thread), 2 cells a thread
  // down, as tiled_wide takes them by default.
  static constexpr int cellsAcross(int elementBytes) { return elementBytes == 1 ? 16 : 32; }
  static constexpr int kCellsPerThread = 2;
  static constexpr int cellTileIn(int elementBytes) {
    return cellsAcross(elementBytes) * cell::side(elementBytes);
  }
  static constexpr int cellTileOut(int elementBytes) {
    return cell::kThreadRows * kCellsPerThread * cell::side(elementBytes);
  }
  int threadsPerBlock() const {
    return cells ? cellsAcross(elementBytes) * cell::kThreadRows : block;
  }

  // The tile, one spare column per row (column reads stay off a single bank), and each row's
  // and column's offset, worked out once per tile. Cells keep theirs in static shared memory.
  std::size_t sharedBytes() const {
    if (cells) return 0;
    const std::size_t index = index32 ? 4 : 8;
    if (byteRows) {
      // Offsets, each row's first byte with spare rows either side, then the rows' words with a
      // spare one each, and room for reads a chunk past the last row's or a spare row's start.
      const std::size_t offsets = (tiling.tileOut + tiling.tileIn) * index +
                                  static_cast<std::size_t>(tiling.tileOut + 2 * kSpareByteRows) * 4;
      return (offsets + 7) / 8 * 8 +
             static_cast<std::size_t>(tiling.tileOut) *
                 static_cast<std::size_t>(byteRowWords() + 1) * 8 +
             static_cast<std::size_t>(2 * elementBytes + 32);
    }
    const std::size_t row = words || shifted
                                ? (tiling.tileIn / perWord() + 1) * 4
                                : static_cast<std::size_t>(tiling.tileIn + 1) * elementBytes;
    const std::size_t rows = static_cast<std::size_t>(tiling.tileOut + rowsBefore());
    return rows * row + (rows + static_cast<std::size_t>(tiling.tileIn)) * index;
  }
  int perWord() const { return 4 / elementBytes; }
  // A tile row's 8-byte words in shared memory with byteRows: a power of two that covers its
  // units from any byte of a word.
  int byteRowWords() const;
  int rowsBefore() const {
    return alignedStores && !cells ? static_cast<int>(kSectorBytes) / elementBytes : 0;
  }
};

// Whether the tiling's groups and the source's start allow aligned cells for this element size
// (the tiling's own tile sides aside); cells are shifted into place otherwise.
bool generalCellsFit(const GeneralTiling& tiling, int elementBytes, std::int64_t sourceOffsetBytes);

// The sides on which cells shift rows into place: loads where the in group's extent is no whole
// cells or the source starts inside an 8-byte word (`srcHead` elements in), stores likewise for
// the out group and the destination. Each side that needs no shift moves aligned words.
struct CellShifts {
  bool loads = false, stores = false;
};
CellShifts cellShifts(const GeneralTiling& tiling, int elementBytes, int srcHead, int dstHead);

// Whether the tiling's groups and the source's start allow words for this element size.
bool generalWordsFit(const GeneralTiling& tiling, int elementBytes, std::int64_t sourceOffsetBytes);

void launchGeneralTiled(const GeneralLaunch& launch, cudaStream_t stream);

// launchGeneralTiled's rows of any length (byteRows).
void launchGeneralRows(const GeneralLaunch& launch, cudaStream_t stream);

}  // namespace kwb::permute
