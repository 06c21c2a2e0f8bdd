#pragma once

#include <cstdint>

namespace kwb::permute {

// The order a grid's blocks take tiles in: along the source's rows (the in group's tiles one
// after another) or along the destination's (the out group's). The blocks resident at once move
// consecutive tiles, so the order sets how much contiguous memory of each side they cover
// together.
enum class TileOrder { Source, Destination };

// One side of a tiling, in bytes: the group's tiles, how much of the group a tile holds, and the
// group's whole extent (contiguous in that side's memory).
struct TileSide {
  std::int64_t tiles = 1, tileBytes = 0, extentBytes = 0;
};

// The contiguous bytes that `window` consecutive tiles cover along the source and the
// destination, taken in `order`.
struct TileRuns {
  std::int64_t source = 0, destination = 0;
};
TileRuns tileRuns(const TileSide& in, const TileSide& out, std::int64_t window, TileOrder order);

// auto's order: the destination's where it lengthens the destination's runs and the source's
// stay kMinSourceRunBytes or more, else the source's.
inline constexpr std::int64_t kMinSourceRunBytes = 512;
TileOrder autoTileOrder(const TileSide& in, const TileSide& out, std::int64_t window);

const char* tileOrderName(TileOrder order);

}  // namespace kwb::permute
