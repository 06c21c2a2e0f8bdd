#include "kernels/permute/packedtiling.h"

#include "kernels/permute/packedtranspose.h"
#include "kernels/randompermutation.h"

#include <random>

#include <gtest/gtest.h>

namespace kwb::permute {
namespace {

// Every destination element written once, from the source element the permutation names: each
// tile's loads fill shared memory in the source's order, its stores read it in the
// destination's.
void expectEveryElementOnceFromItsSource(const Permutation& s, int bytes, int maxVolume) {
  const auto g = packedTiling(s, bytes, maxVolume);
  ASSERT_TRUE(g) << "no tile";
  ASSERT_LE(g->volume, maxVolume);
  const SourceOffsets sourceOf(s);
  std::vector<int> written(static_cast<std::size_t>(s.elements()), 0);
  std::vector<std::int64_t> tile(static_cast<std::size_t>(g->sharedElements));
  for (std::int64_t t = 0; t < g->tiles(); ++t) {
    std::fill(tile.begin(), tile.end(), -1);
    int loads = 0, stores = 0;
    for (int p = 0; p < g->volume; ++p) {
      const PackedElement e = packedLoad(*g, t, p);
      if (!e.inside) continue;
      ASSERT_LT(e.shared, g->sharedElements);
      ASSERT_EQ(tile[static_cast<std::size_t>(e.shared)], -1) << g->describe();
      tile[static_cast<std::size_t>(e.shared)] = e.offset;
      ++loads;
    }
    for (int p = 0; p < g->volume; ++p) {
      const PackedElement e = packedStore(*g, t, p);
      if (!e.inside) continue;
      ASSERT_GE(e.offset, 0);
      ASSERT_LT(e.offset, s.elements());
      ASSERT_EQ(tile[static_cast<std::size_t>(e.shared)], sourceOf(e.offset))
          << g->describe() << " tile " << t << " position " << p;
      ++written[static_cast<std::size_t>(e.offset)];
      ++stores;
    }
    ASSERT_EQ(loads, stores) << g->describe();
  }
  for (std::size_t d = 0; d < written.size(); ++d)
    ASSERT_EQ(written[d], 1) << g->describe() << ": destination element " << d;
}

TEST(PackedTiling, AReversalOfShortSidesTakesAChunkOfTheDimensionTheyShare) {
  // (5, 273913, 49) reversed: tiles of two groups would write runs of 5; a tile of 5 x 16 x 49
  // reads runs of 16 x 49 and writes runs of 16 x 5.
  const auto g = packedTiling({{5, 273913, 49}, {2, 1, 0}}, 1);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->describe(), "tile 5 x 16/273913 x 49 | reads 784 | writes 80");
  EXPECT_EQ(g->chunks, 17120);
  EXPECT_EQ(g->tiles(), 17120);
}

TEST(PackedTiling, ChunksOfEqualSizeCoverTheSplitDimension) {
  // (87, 6, 64280) reversed in f32: 87 x 6 whole and 64280 in chunks of 7.
  const auto g = packedTiling({{87, 6, 64280}, {2, 1, 0}}, 4);
  ASSERT_TRUE(g);
  ASSERT_GE(g->split, 0);
  const PackedTiling::Axis& split = g->axis[g->split];
  EXPECT_GE(split.extent * g->chunks, split.size);
  EXPECT_LT((split.extent - 1) * g->chunks, split.size);
}

TEST(PackedTiling, TheDestinationsInnermostDimensionGetsAnOddSharedStride) {
  for (const Permutation& p : {Permutation{{5, 273913, 49}, {2, 1, 0}},
                               Permutation{{100, 3, 23, 400, 24}, {4, 2, 0, 3, 1}},
                               Permutation{{64, 64, 64}, {2, 0, 1}}}) {
    const auto g = packedTiling(simplify(p), 2);
    ASSERT_TRUE(g);
    EXPECT_EQ(g->axis[g->dstOrder[0]].sharedStride % 2, 1) << g->describe();
  }
}

TEST(PackedTiling, TwoLongInnermostDimensionsMakeNoTile) {
  EXPECT_FALSE(packedTiling({{5000, 5000}, {1, 0}}, 4));
  EXPECT_TRUE(packedTiling({{5000, 5000}, {1, 0}}, 4, 4096 * 4096));
}

TEST(PackedTiling, EveryElementOfRandomPermutationsComesFromItsSourceOnce) {
  std::mt19937 rng(7);
  int checked = 0;
  while (checked < 300) {
    const Permutation s = simplify(randomPermutation(rng, 1, 6));
    const int maxVolume = checked % 3 == 0 ? 128 : kMaxPackedVolume;
    const int bytes = 1 << (checked % 4);
    if (!packedTiling(s, bytes, maxVolume)) continue;  // both innermost dimensions too long
    expectEveryElementOnceFromItsSource(s, bytes, maxVolume);
    // Whatever the tile, its shared indices fit 16 bits and its bytes a block's 48 KiB.
    PackedLaunch launch;
    launch.tiling = *packedTiling(s, bytes, maxVolume);
    launch.elementBytes = bytes;
    EXPECT_LT(launch.tiling.sharedElements, 1 << 16);
    EXPECT_LE(launch.sharedBytes(), 48u * 1024);
    ++checked;
  }
}

TEST(PackedWords, RunsOfWholeWordsOnBothSidesMoveInWords) {
  // (127826, 3, 100, 7) to (7, 3, 127826, 100) in bytes: a tile of 5 x 100 x 7 reads runs of
  // 2100 bytes from multiples of 4 and writes runs of 500 from multiples of 4.
  const Permutation s{{127826, 3, 100, 7}, {3, 1, 0, 2}};
  const auto g = packedTiling(s, 1);
  ASSERT_TRUE(g);
  const PackedWords words = packedWords(*g, 1, 0);
  EXPECT_EQ(words.bytes, 4) << g->describe();
  EXPECT_EQ(packedWords(*g, 1, 2).bytes, 0) << "a source 2 bytes into its buffer";
  // (5, 273913, 49) reversed writes runs of 80 bytes 5 x 273913 bytes apart: no words.
  EXPECT_EQ(packedWords(*packedTiling({{5, 273913, 49}, {2, 1, 0}}, 1), 1, 0).bytes, 0);
}

TEST(PackedWords, TheSwizzleSpreadsGathersThatMeetInFewBanks) {
  // (12, 266305, 12, 7) to (266305, 7, 12, 12) in bytes: the destination's innermost dimension
  // lies 336 bytes apart in the tile, so a warp's gathers from words of 4 bytes unswizzled meet
  // in 2 banks.
  const auto g = packedTiling({{12, 266305, 12, 7}, {1, 3, 2, 0}}, 1);
  ASSERT_TRUE(g);
  const PackedWords words = packedWords(*g, 1, 0);
  ASSERT_EQ(words.bytes, 4) << g->describe();
  EXPECT_TRUE(words.swizzle);
  EXPECT_LT(words.bankWays, 4);
}

}  // namespace
}  // namespace kwb::permute
