#include "kernels/permute/tileorder.h"

#include <algorithm>

namespace kwb::permute {

TileRuns tileRuns(const TileSide& in, const TileSide& out, std::int64_t window, TileOrder order) {
  const bool byDestination = order == TileOrder::Destination;
  const TileSide& first = byDestination ? out : in;
  const TileSide& second = byDestination ? in : out;
  window = std::max<std::int64_t>(window, 1);
  // The window runs along the first side's tiles, then on to the next tiles of the second.
  const std::int64_t along = std::min(window, first.tiles);
  const std::int64_t across = std::clamp<std::int64_t>(window / first.tiles, 1, second.tiles);
  const std::int64_t firstRun = std::min(along * first.tileBytes, first.extentBytes);
  const std::int64_t secondRun = std::min(across * second.tileBytes, second.extentBytes);
  return byDestination ? TileRuns{secondRun, firstRun} : TileRuns{firstRun, secondRun};
}

// Measured on an H200 (PERFORMANCE.md, thirty-ninth pass): of the 28 random bench cases it
// takes, the destination's order moved 25 faster, up to 1.27x ((323, 4, 16, 270, 24) with (4,
// 2, 3, 1, 0) u8; (87, 6, 64280) reversed f32 1.14x; 8192 x 8192 1.01-1.03x in every size), the
// slowest (100, 20971) f16 of 3 MiB 0.94x. Where it left source runs of 256 bytes or less it
// lost 3 to 18 % ((291, 325, 59, 12) with (2, 3, 0, 1) f32, (894784, 3, 4, 5, 5) with (1, 4, 2,
// 3, 0) u8).
TileOrder autoTileOrder(const TileSide& in, const TileSide& out, std::int64_t window) {
  const TileRuns bySource = tileRuns(in, out, window, TileOrder::Source);
  const TileRuns byDestination = tileRuns(in, out, window, TileOrder::Destination);
  return byDestination.destination > bySource.destination &&
                 byDestination.source >= kMinSourceRunBytes
             ? TileOrder::Destination
             : TileOrder::Source;
}

const char* tileOrderName(TileOrder order) {
  return order == TileOrder::Destination ? "destination" : "source";
}

}  // namespace kwb::permute
