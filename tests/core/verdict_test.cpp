#include "core/verdict.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "core/error.h"

namespace kwb {
namespace {

// n samples around `center` with a relative spread of `rsd`, seeded.
std::vector<double> samples(double center, double rsd, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> noise(center, center * rsd);
  std::vector<double> out(n);
  for (double& x : out) x = noise(random);
  return out;
}

TEST(Verdict, EqualRunsAreTheSame) {
  const Verdict v = compareSamples(samples(50e-6, 0.005, 100, 1), samples(50e-6, 0.005, 100, 2));
  EXPECT_EQ(v.kind, VerdictKind::Same);
  EXPECT_NEAR(v.ratio, 1.0, 0.003);
  EXPECT_LT(v.low, v.ratio);
  EXPECT_GT(v.high, v.ratio);
}

TEST(Verdict, AShiftOutsideTheBandIsFasterOrSlower) {
  const auto base = samples(50e-6, 0.003, 200, 3);
  const Verdict slower = compareSamples(base, samples(50.75e-6, 0.003, 200, 4));  // +1.5 %
  EXPECT_EQ(slower.kind, VerdictKind::Slower);
  EXPECT_GT(slower.low, 1.0);
  const Verdict faster = compareSamples(base, samples(45e-6, 0.003, 200, 5));  // -10 %
  EXPECT_EQ(faster.kind, VerdictKind::Faster);
  EXPECT_NEAR(faster.ratio, 0.9, 0.005);
  EXPECT_LT(faster.high, 1.0);
}

// 1 % is the band's edge: a shift of that size is not called the same.
TEST(Verdict, AOnePercentShiftIsNotTheSame) {
  const Verdict v = compareSamples(samples(50e-6, 0.003, 200, 6), samples(50.5e-6, 0.003, 200, 7));
  EXPECT_NE(v.kind, VerdictKind::Same);
  EXPECT_NEAR(v.ratio, 1.01, 0.002);
}

// Two modes half and half: the median jumps between them, and nothing can be said.
TEST(Verdict, ABimodalRunIsUnsure) {
  std::vector<double> bimodal = samples(50e-6, 0.002, 30, 8);
  const auto high = samples(60e-6, 0.002, 30, 9);
  bimodal.insert(bimodal.end(), high.begin(), high.end());
  const Verdict v = compareSamples(samples(55e-6, 0.002, 60, 10), bimodal);
  EXPECT_EQ(v.kind, VerdictKind::Unsure);
  EXPECT_LT(v.low, 1.0);
  EXPECT_GT(v.high, 1.0);
}

TEST(Verdict, ADifferenceTheClocksExplainIsSaidToBeThem) {
  RunResult base, slow;
  base.samples = samples(50e-6, 0.003, 100, 11);
  slow.samples = samples(50e-6 * 1980.0 / 1755.0, 0.003, 100, 12);
  base.metrics = {{"gpu.sm_clock", 1980, "MHz", ""}};
  slow.metrics = {{"gpu.sm_clock", 1755, "MHz", ""}};
  const Verdict v = compareRuns(base, slow);
  EXPECT_EQ(v.kind, VerdictKind::Slower);
  ASSERT_TRUE(v.clockRatio);
  EXPECT_NEAR(*v.clockRatio, 1755.0 / 1980.0, 1e-9);
  EXPECT_TRUE(v.explainedByClocks);
  slow.metrics.clear();  // without the candidate's clock nothing is said of clocks
  EXPECT_FALSE(compareRuns(base, slow).clockRatio);
}

// A run of the older timing against a newer one: the verdict stands, with what differs said.
TEST(Verdict, RunsTimedDifferentlySaySo) {
  RunResult old, fresh;
  old.samples = samples(52e-6, 0.003, 100, 13);
  old.flush = L2Flush::Write;
  fresh.samples = samples(45e-6, 0.003, 100, 14);
  fresh.eventOverhead = 1.3e-6;
  const Verdict v = compareRuns(old, fresh);
  EXPECT_EQ(v.kind, VerdictKind::Faster);
  ASSERT_EQ(v.caveats.size(), 2u);
  EXPECT_NE(v.caveats[0].find("the baseline flushed L2 by writing alone"), std::string::npos);
  EXPECT_NE(v.caveats[1].find("the baseline keeps the events' own time"), std::string::npos);
  EXPECT_NE(v.caveats[1].find("1.3 us"), std::string::npos);
  fresh.mode = TimingMode::Hot;
  fresh.flush = L2Flush::None;
  EXPECT_NE(compareRuns(old, fresh).caveats[0].find("timed cold and this run hot"),
            std::string::npos);
  old = fresh;
  EXPECT_TRUE(compareRuns(old, fresh).caveats.empty());
}

TEST(Verdict, AMediansIntervalHoldsItAndNarrowsWithMoreSamples) {
  const auto few = samples(50e-6, 0.01, 20, 15), many = samples(50e-6, 0.01, 2000, 16);
  const Interval a = medianInterval(few), b = medianInterval(many);
  EXPECT_LT(a.low, 50e-6);
  EXPECT_GT(a.high, 50e-6);
  EXPECT_LT(b.low, 50e-6);
  EXPECT_GT(b.high, 50e-6);
  EXPECT_LT(b.high - b.low, (a.high - a.low) / 3);
  const double three[] = {3.0, 1.0, 2.0};
  EXPECT_EQ(medianInterval(three).low, 1.0);  // below 6 samples: the whole range
  EXPECT_EQ(medianInterval(three).high, 3.0);
}

TEST(Verdict, TiedWithTheBestMeansAnOverlappingInterval) {
  const double values[] = {10, 9.9, 8};
  const Interval intervals[] = {{9.8, 10.2}, {9.7, 9.85}, {7.9, 8.1}};
  EXPECT_EQ(tiedWithBest(values, intervals), (std::vector<bool>{true, true, false}));
}

TEST(Verdict, TooFewSamplesAreRefused) {
  EXPECT_THROW(compareSamples(std::vector{1.0}, std::vector{1.0, 2.0}), Error);
  EXPECT_EQ(toString(VerdictKind::Unsure), "UNSURE");
}

}  // namespace
}  // namespace kwb
