#include "kernels/permute/generaltiling.h"

#include "kernels/permute/generaltiled.h"
#include "kernels/randompermutation.h"

#include <random>

#include <gtest/gtest.h>

namespace kwb::permute {
namespace {

// Every destination element written once, from the source element the permutation names.
void expectEveryElementOnceFromItsSource(const Permutation& s, const GeneralTiling& g) {
  ASSERT_EQ(g.inExtent * g.outExtent * g.batchExtent, s.elements());
  const SourceOffsets sourceOf(s);
  std::vector<int> written(static_cast<std::size_t>(s.elements()), 0);
  for (std::int64_t t = 0; t < g.tiles(); ++t)
    for (int o = 0; o < g.tileOut; ++o)
      for (int i = 0; i < g.tileIn; ++i) {
        const TileElement e = tileElement(g, t, o, i);
        if (!e.inside) continue;
        ASSERT_GE(e.dst, 0);
        ASSERT_LT(e.dst, s.elements());
        ASSERT_EQ(e.src, sourceOf(e.dst))
            << g.describe() << " tile " << t << " (" << o << ", " << i << ")";
        ++written[static_cast<std::size_t>(e.dst)];
      }
  for (std::size_t d = 0; d < written.size(); ++d)
    ASSERT_EQ(written[d], 1) << g.describe() << ": destination element " << d;
}

TEST(GeneralTiling, AFullReversalTilesTheSourceRowsAgainstTheDestinationsShortPlanes) {
  const GeneralTiling g = generalTiling({{3, 4096, 4096}, {2, 1, 0}});
  EXPECT_EQ(g.describe(), "in 4096 | out 3 x 4096 | batch 1");
  EXPECT_EQ(g.tileOut, 64);
  EXPECT_EQ(g.tileIn, 64);
}

TEST(GeneralTiling, AShortSourceRowIsATileOfItsWholeLength) {
  // (128, 64, 64, 8) with (0, 3, 1, 2): 8 channels to planes.
  const GeneralTiling g = generalTiling(simplify({{128, 64, 64, 8}, {0, 3, 1, 2}}));
  EXPECT_EQ(g.describe(), "in 8 | out 4096 | batch 128");
  EXPECT_EQ(g.tileIn, 8);
  EXPECT_EQ(g.tileOut, 512);
}

TEST(GeneralTiling, GroupsGrowToFillTheSpansTheyAreGiven) {
  // (4, 139, 67, 513, 7) with (4, 3, 0, 2, 1): columns of 139 fill 54 % of two 128-long spans;
  // asked to fill 7/8, they take 67 more, which the source's group (7 x 513) left free.
  const Permutation p{{4, 139, 67, 513, 7}, {4, 3, 0, 2, 1}};
  EXPECT_EQ(generalTiling(p).describe(), "in 7 x 513 | out 139 | batch 67 x 4");
  EXPECT_EQ(generalTiling(p, kGeneralTileElements, 128, 128).describe(),
            "in 7 x 513 | out 139 | batch 67 x 4");
  EXPECT_EQ(generalTiling(p, kGeneralTileElements, 128, 128, 0.875).describe(),
            "in 7 x 513 | out 139 x 67 | batch 4");
  // A group never takes the other's dimensions to fill its spans: (21, 5, 951, 7, 12, 2) with
  // (3, 0, 5, 4, 2, 1) keeps 951 in the destination's group.
  EXPECT_EQ(generalTiling({{21, 5, 951, 7, 12, 2}, {3, 0, 5, 4, 2, 1}}, kGeneralTileElements, 128,
                          256, 0.875)
                .describe(),
            "in 2 x 12 x 7 | out 5 x 951 | batch 21");
}

TEST(GeneralTiling, GroupsStopAtTheOtherSidesInnermostDimension) {
  // (1, 3, 0, 2) of (4, 5, 6, 7): the source's group stops before 6, the destination's
  // innermost, and the destination's before 7; 5 is left to the batch.
  const GeneralTiling g = generalTiling({{4, 5, 6, 7}, {1, 3, 0, 2}});
  EXPECT_EQ(g.describe(), "in 7 | out 6 x 4 | batch 5");
}

TEST(GeneralTiling, SidesFitTheGroupsWhereRowsStraddleSectors) {
  // (12, 14, 736, 11, 6) with (3, 1, 4, 2, 0) in f64: rows of 66 start 528 bytes apart; tiles 64
  // wide hold 66 in two, 52 % full, tiles 16 wide in five, 83 %.
  GeneralTiling g = generalTiling({{12, 14, 736, 11, 6}, {3, 1, 4, 2, 0}}, 2048, 64, 64, 0.875);
  ASSERT_EQ(g.describe(), "in 6 x 11 | out 12 x 736 | batch 14");
  ASSERT_EQ(g.tileIn, 64);
  fitTileSides(g, 8, 2048);
  EXPECT_EQ(g.tileIn, 16);
  EXPECT_EQ(g.tileOut, 128);
  // The same groups in f32, rows 264 bytes apart: 16 f32 are 64 bytes, shorter than the shortest
  // run taken; tiles 32 wide, 69 % full.
  g = generalTiling({{12, 14, 736, 11, 6}, {3, 1, 4, 2, 0}}, 4096, 64, 64, 0.875);
  fitTileSides(g, 4, 4096);
  EXPECT_EQ(g.tileIn, 32);
  EXPECT_EQ(g.tileOut, 128);
  // (2, 1, 300, 4, 96, 44) with (5, 3, 0, 2, 4, 1) in f64: rows of 352 bytes start on sectors,
  // and the tile keeps a row whole.
  g = generalTiling(simplify({{2, 1, 300, 4, 96, 44}, {5, 3, 0, 2, 4, 1}}), 2048, 64, 64, 0.875);
  const int tileIn = g.tileIn, tileOut = g.tileOut;
  fitTileSides(g, 8, 2048);
  EXPECT_EQ(g.tileIn, tileIn);
  EXPECT_EQ(g.tileOut, tileOut);
  // A full tile stays as it is.
  g = generalTiling({{3, 4096, 4096}, {2, 1, 0}}, 4096, 64, 64, 0.875);
  fitTileSides(g, 4, 4096);
  EXPECT_EQ(g.tileIn, 64);
  EXPECT_EQ(g.tileOut, 64);
}

TEST(GeneralTiling, EveryElementOfRandomPermutationsComesFromItsSourceOnce) {
  std::mt19937 rng(3);
  int checked = 0;
  while (checked < 300) {
    const Permutation s = simplify(randomPermutation(rng, 2, 6));
    if (s.perm.back() == static_cast<int>(s.shape.size()) - 1) continue;  // innermost stays
    const int tileElements = checked % 3 == 0 ? 256 : kGeneralTileElements;
    GeneralTiling g = generalTiling(s, tileElements);
    expectEveryElementOnceFromItsSource(s, g);
    if (checked % 3 == 1) {  // sides fitted to the groups, as for 4-byte units
      GeneralTiling fitted = g;
      fitTileSides(fitted, 4, tileElements);
      expectEveryElementOnceFromItsSource(s, fitted);
      EXPECT_LE(fitted.tileIn * fitted.tileOut, tileElements);
    }
    EXPECT_LE(g.tileIn * g.tileOut, tileElements);
    // Whatever the tile's shape, it fits the shared memory a block takes without opting in.
    for (int bytes : {1, 2, 4, 8})
      for (bool index32 : {true, false}) {
        GeneralLaunch launch;
        launch.tiling = generalTiling(s, generalTileElements(bytes));
        launch.elementBytes = bytes;
        launch.index32 = index32;
        EXPECT_LE(launch.sharedBytes(), 48u * 1024) << launch.tiling.describe() << " " << bytes;
      }
    ++checked;
  }
}

}  // namespace
}  // namespace kwb::permute
