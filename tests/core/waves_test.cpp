#include "core/waves.h"

#include <cmath>

#include <gtest/gtest.h>

namespace kwb {
namespace {

constexpr int kH100Sms = 132;

WaveLaunch launch(long long grid, int resident) {
  WaveLaunch l;
  l.grid = grid;
  l.block = 256;
  l.residentPerSm = resident;
  l.limiter = "threads";
  l.smCount = kH100Sms;
  return l;
}

TEST(Waves, WholeWavesHaveNoTail) {
  const WaveLaunch l = launch(2112, 8);  // 2 x 132 x 8
  EXPECT_DOUBLE_EQ(l.waves(), 2.0);
  EXPECT_EQ(l.fullWaves(), 2);
  EXPECT_EQ(l.tailBlocks(), 0);
  EXPECT_DOUBLE_EQ(l.tailCost(), 0.0);
  EXPECT_NE(wavesSentence(l, 10e-6).find("2.00 waves over 132 SMs; whole waves, no tail"),
            std::string::npos)
      << wavesSentence(l, 10e-6);
}

TEST(Waves, APartialLastWaveCostsItsIdleSlots) {
  const WaveLaunch l = launch(1100, 8);  // one wave of 1056, then 44 blocks
  EXPECT_NEAR(l.waves(), 1.0417, 1e-4);
  EXPECT_EQ(l.fullWaves(), 1);
  EXPECT_EQ(l.tailBlocks(), 44);
  EXPECT_NEAR(l.tailCost(), 1 - 1100.0 / 2112, 1e-12);
  // Blocks are dealt round the SMs: the second wave gives SMs 0..43 one block each.
  EXPECT_EQ(l.blocksAt(0, 0), 8);
  EXPECT_EQ(l.blocksAt(43, 1), 1);
  EXPECT_EQ(l.blocksAt(44, 1), 0);
  const std::string sentence = wavesSentence(l, 20e-6);
  EXPECT_NE(sentence.find("the last wave holds 44 blocks (4 % of a wave)"), std::string::npos)
      << sentence;
  EXPECT_NE(sentence.find("Predicted cost of the idle slots: 48 % of the time (9.58 us)"),
            std::string::npos)
      << sentence;
}

TEST(Waves, AGridSmallerThanAWaveIdlesSms) {
  const WaveLaunch l = launch(33, 8);
  EXPECT_EQ(l.fullWaves(), 0);
  EXPECT_EQ(l.tailBlocks(), 33);
  EXPECT_NE(wavesSentence(l, 0).find("one partial wave: 97 % of the block slots idle"),
            std::string::npos);
}

TEST(Waves, RecordedLaunchesReadBack) {
  RunResult one;
  one.derived.set("grid", "1100");  // a family's own grid stays
  recordWaves(one.derived, {launch(1100, 8)});
  EXPECT_EQ(one.derived.get("resident_blocks"), "8");
  EXPECT_EQ(one.derived.get("limiter"), "threads");
  EXPECT_EQ(one.derived.get("wave_count"), "1.04");
  const auto read = waveLaunches(one, kH100Sms);
  ASSERT_EQ(read.size(), 1u);
  EXPECT_EQ(read[0].grid, 1100);
  EXPECT_EQ(read[0].residentPerSm, 8);

  RunResult two;
  recordWaves(two.derived, {launch(1100, 8), launch(40, 2)});
  EXPECT_EQ(two.derived.get("grid_2"), "40");
  const auto both = waveLaunches(two, kH100Sms);
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[1].grid, 40);
  EXPECT_EQ(both[1].residentPerSm, 2);

  EXPECT_TRUE(waveLaunches(RunResult{}, kH100Sms).empty());  // a run from before
  EXPECT_TRUE(waveLaunches(one, 0).empty());                 // no device
}

TEST(Waves, TheFitRecoversTheSawTooth) {
  // An n sweep of one element per thread: time = 2 us + stretched bytes at 3 TB/s.
  std::vector<RunResult> runs;
  for (long long grid = 500; grid <= 5000; grid += 250) {
    RunResult r;
    r.bytes = static_cast<std::uint64_t>(grid) * 256 * 8;
    recordWaves(r.derived, {launch(grid, 8)});
    const WaveLaunch l = waveLaunches(r, kH100Sms).front();
    r.stats.median = 2e-6 + static_cast<double>(r.bytes) * std::ceil(l.waves()) / l.waves() / 3e12;
    runs.push_back(r);
  }
  const auto model = fitWaves(runs, kH100Sms);
  ASSERT_TRUE(model);
  EXPECT_NEAR(model->secondsPerByte, 1 / 3e12, 1e-18);
  EXPECT_NEAR(model->overhead, 2e-6, 1e-12);
  for (const RunResult& r : runs)
    EXPECT_NEAR(model->predict(r, waveLaunches(r, kH100Sms).front()), r.stats.median, 1e-12);
  EXPECT_FALSE(fitWaves({runs.front()}, kH100Sms));  // one run fits nothing
}

}  // namespace
}  // namespace kwb
