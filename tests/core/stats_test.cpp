#include "core/stats.h"

#include <gtest/gtest.h>

#include <vector>

namespace kwb {
namespace {

TEST(Stats, SummarizesOddAndEvenCounts) {
  std::vector<double> odd{3, 1, 2};
  Summary s = summarize(odd);
  EXPECT_EQ(s.count, 3u);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 3);
  EXPECT_DOUBLE_EQ(s.median, 2);
  EXPECT_DOUBLE_EQ(s.mean, 2);
  EXPECT_DOUBLE_EQ(s.stddev, 1);  // sample standard deviation
  EXPECT_DOUBLE_EQ(s.relStddev(), 0.5);

  std::vector<double> even{4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(summarize(even).median, 2.5);
}

TEST(Stats, EmptyAndSingle) {
  EXPECT_EQ(summarize({}).count, 0u);
  std::vector<double> one{5e-6};
  Summary s = summarize(one);
  EXPECT_DOUBLE_EQ(s.median, 5e-6);
  EXPECT_DOUBLE_EQ(s.stddev, 0);
  EXPECT_DOUBLE_EQ(s.relStddev(), 0);
}

}  // namespace
}  // namespace kwb
