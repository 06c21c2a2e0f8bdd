// auto's tile order: the destination's where it lengthens the destination's runs and leaves the
// source's runs 512 bytes or more.
#include "kernels/permute/tileorder.h"

#include <gtest/gtest.h>

namespace kwb::permute {
namespace {

TEST(TileOrder, RunsFollowTheWindowAlongTheFirstSideThenAcross) {
  // 8192 x 8192 f32 in tiles of 64: 128 tiles each way, 528 blocks at once.
  const TileSide side{128, 256, 32768};
  const TileRuns bySource = tileRuns(side, side, 528, TileOrder::Source);
  EXPECT_EQ(bySource.source, 32768);      // whole rows
  EXPECT_EQ(bySource.destination, 1024);  // 4 tiles down
  const TileRuns byDestination = tileRuns(side, side, 528, TileOrder::Destination);
  EXPECT_EQ(byDestination.source, 1024);
  EXPECT_EQ(byDestination.destination, 32768);
  // A window past every tile of a matrix covers both groups whole.
  const TileRuns small = tileRuns({3, 256, 700}, {2, 256, 400}, 528, TileOrder::Destination);
  EXPECT_EQ(small.source, 700);
  EXPECT_EQ(small.destination, 400);
}

TEST(TileOrder, AutoTakesTheDestinationsWhereTheSourcesRunsStayLong) {
  const TileSide square{128, 256, 32768};
  EXPECT_EQ(autoTileOrder(square, square, 528), TileOrder::Destination);
  // (87, 6, 64280) reversed, f32: the destination's runs grow from 256 bytes to whole groups.
  EXPECT_EQ(autoTileOrder({1005, 256, 257120}, {9, 256, 2088}, 1056), TileOrder::Destination);
}

TEST(TileOrder, AutoKeepsTheSourcesWhereTheDestinationsWouldCutSourceRunsShort) {
  // (291, 325, 59, 12) with (2, 3, 0, 1), f32: 1478 tiles down leave the source a tile's 256 bytes.
  EXPECT_EQ(autoTileOrder({12, 256, 2832}, {1478, 256, 378300}, 528), TileOrder::Source);
  // (894784, 3, 4, 5, 5) with (1, 4, 2, 3, 0), u8 cells: 128 bytes.
  EXPECT_EQ(autoTileOrder({3, 128, 300}, {3496, 256, 894784}, 1056), TileOrder::Source);
}

TEST(TileOrder, AutoKeepsTheSourcesWhereTheWindowHoldsEveryTileAnyway) {
  EXPECT_EQ(autoTileOrder({4, 256, 960}, {7, 256, 1648}, 1056), TileOrder::Source);
}

}  // namespace
}  // namespace kwb::permute
