#include "kernels/permute/permuteplan.h"

#include <algorithm>
#include <numeric>
#include <random>

#include <gtest/gtest.h>

#include "core/error.h"
#include "kernels/permute/permuteauto.h"

namespace kwb::permute {
namespace {

Permutation randomPermutation(std::mt19937& rng) {
  const int rank = std::uniform_int_distribution<int>(1, kMaxDims)(rng);
  const std::int64_t sizes[] = {1, 1, 2, 3, 4, 5, 7};
  Permutation p;
  for (int d = 0; d < rank; ++d)
    p.shape.push_back(sizes[std::uniform_int_distribution<int>(0, 6)(rng)]);
  p.perm.resize(static_cast<std::size_t>(rank));
  std::iota(p.perm.begin(), p.perm.end(), 0);
  std::shuffle(p.perm.begin(), p.perm.end(), rng);
  return p;
}

// Brute force: every destination element must come from the same source element.
void expectSameMapping(const Permutation& a, const Permutation& b) {
  ASSERT_EQ(a.elements(), b.elements());
  for (std::int64_t d = 0; d < a.elements(); ++d)
    ASSERT_EQ(sourceOffset(a, d), sourceOffset(b, d)) << "destination element " << d;
}

TEST(PermutePlan, SourceOffsetsOfAKnownTranspose) {
  const Permutation t{{2, 3}, {1, 0}};  // src [[0 1 2] [3 4 5]] -> dst [[0 3] [1 4] [2 5]]
  const std::int64_t expected[] = {0, 3, 1, 4, 2, 5};
  for (int d = 0; d < 6; ++d) EXPECT_EQ(sourceOffset(t, d), expected[d]);
}

TEST(PermutePlan, SimplifiedPermutationsMoveEveryElementTheSameWay) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 1500; ++trial) {
    const Permutation p = randomPermutation(rng);
    const Permutation s = simplify(p);
    expectSameMapping(p, s);
    // Nothing left to simplify: no size-1 dimension (unless alone), no run to merge.
    if (s.shape.size() > 1) {
      EXPECT_EQ(std::count(s.shape.begin(), s.shape.end(), 1), 0);
      for (std::size_t i = 0; i + 1 < s.perm.size(); ++i) EXPECT_NE(s.perm[i] + 1, s.perm[i + 1]);
    }
    EXPECT_EQ(simplify(s), s);
  }
}

// Destination matrix m holds source matrix order.source(m), transposed, for every reordered batch.
TEST(PermutePlan, ReorderedTransposesFindEachMatrixsSource) {
  std::mt19937 rng(13);
  int reordered = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const Permutation s = simplify(randomPermutation(rng));
    const auto r = asReorderedTranspose(s);
    const int n = static_cast<int>(s.shape.size());
    ASSERT_EQ(r.has_value(), n >= 2 && s.perm[n - 2] == n - 1 && s.perm[n - 1] == n - 2);
    if (!r) continue;
    reordered += r->order.rank > 0;
    const std::int64_t rows = r->t.rows, cols = r->t.cols;
    ASSERT_EQ(r->t.batch * rows * cols, s.elements());
    for (std::int64_t d = 0; d < s.elements(); ++d) {
      const std::int64_t m = d / (rows * cols), j = d % (rows * cols) / rows, i = d % rows;
      ASSERT_EQ(sourceOffset(s, d), r->order.source(m) * rows * cols + i * cols + j)
          << "destination element " << d;
    }
  }
  EXPECT_GT(reordered, 20);
  const auto r = asReorderedTranspose({{78, 96, 3, 5974}, {1, 0, 3, 2}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->t.batch, 7488);
  EXPECT_EQ(r->order.source(1), 96);  // the next destination matrix: the next of the source's 78
  EXPECT_EQ(r->order.source(78), 1);
  EXPECT_FALSE(asReorderedTranspose({{4, 5, 6, 100}, {2, 0, 1, 3}}));
}

TEST(PermutePlan, SimplifiesTheIssuesShapes) {
  EXPECT_EQ(simplify({{32, 128, 16, 64}, {0, 2, 1, 3}}),
            (Permutation{{32, 128, 16, 64}, {0, 2, 1, 3}}));
  EXPECT_EQ(simplify({{64, 64, 128, 128}, {2, 3, 0, 1}}), (Permutation{{4096, 16384}, {1, 0}}));
  EXPECT_EQ(simplify({{16, 3, 512, 512}, {0, 2, 3, 1}}), (Permutation{{16, 3, 262144}, {0, 2, 1}}));
  EXPECT_EQ(simplify({{16, 512, 512, 3}, {0, 3, 1, 2}}), (Permutation{{16, 262144, 3}, {0, 2, 1}}));
  EXPECT_EQ(simplify({{1, 8, 1, 9}, {2, 3, 0, 1}}), (Permutation{{8, 9}, {1, 0}}));
  EXPECT_EQ(simplify({{1, 8, 1, 9}, {2, 0, 1, 3}}), (Permutation{{72}, {0}}));
  EXPECT_EQ(simplify({{1, 1}, {1, 0}}), (Permutation{{1}, {0}}));
}

TEST(PermutePlan, MovementUnitsKeepTheMapping) {
  std::mt19937 rng(11);
  int checked = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    Permutation p = randomPermutation(rng);
    p.shape.back() *= 8;  // rows of 8 elements or more, so wider units are possible
    const Permutation s = simplify(p);
    for (int elementBytes : {1, 2, 4}) {
      const int size = movementSize(s, elementBytes, 0, 0);
      if (size == elementBytes) continue;
      ++checked;
      const Permutation units = inMovementUnits(s, elementBytes, size);
      const std::int64_t k = size / elementBytes;
      for (std::int64_t u = 0; u < units.elements(); ++u)
        for (std::int64_t e = 0; e < k; ++e)
          ASSERT_EQ(sourceOffset(units, u) * k + e, sourceOffset(s, u * k + e));
    }
  }
  EXPECT_GT(checked, 100);
}

TEST(PermutePlan, MovementSizeFollowsRowBytesAlignmentAndTheLimit) {
  const Permutation rows{{64, 512, 512}, {1, 0, 2}};  // the innermost 512 stay innermost
  EXPECT_EQ(movementSize(rows, 4, 0, 0), 16);
  EXPECT_EQ(movementSize(rows, 4, 0, 0, 8), 8);
  EXPECT_EQ(movementSize(rows, 4, 8, 0), 8);              // a source aligned to 8 bytes only
  EXPECT_EQ(movementSize(rows, 2, 0, 2), 2);              // a misaligned destination
  EXPECT_EQ(movementSize({{4, 6}, {1, 0}}, 4, 0, 0), 4);  // a transpose moves single elements
  EXPECT_EQ(movementSize({{5, 3}, {0, 1}}, 2, 0, 0), 2);  // 3 halves = 6 bytes: 2 at most
}

TEST(PermutePlan, InvalidPermutationsAreRejectedWithTheReason) {
  const auto message = [](const Permutation& p) {
    try {
      checkPermutation(p);
    } catch (const Error& e) {
      EXPECT_EQ(e.param(), "perm");
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message({{4, 4}, {0, 0}}).find("axis 0 is repeated"), std::string::npos);
  EXPECT_NE(message({{4, 4}, {0, 2}}).find("axis 2 is out of range"), std::string::npos);
  EXPECT_NE(message({{4, 4, 4}, {1, 0}}).find("has 2 axes for a shape of 3"), std::string::npos);
  EXPECT_EQ(message({{4, 4, 4}, {2, 0, 1}}), "accepted");
}

}  // namespace
}  // namespace kwb::permute
