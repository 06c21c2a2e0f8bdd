#include "core/roofline.h"

#include <gtest/gtest.h>

namespace kwb {
namespace {

const std::vector<DeviceCeiling> kH100{{"dram", 3e12, 0, 0},
                                       {"l2", 6e12, 1980, 0},
                                       {"fp32", 60e12, 1980, 0},
                                       {"fp64", 30e12, 1980, 0}};

// gelu f32 over 2^24 elements: 5 flops and 8 bytes an element.
RunResult gelu(double seconds) {
  RunResult r;
  r.problem.set("dtype", "f32");
  r.bytes = 8ull << 24;
  r.flops = 5.0 * (1 << 24);
  r.stats.median = seconds;
  return r;
}

TEST(Roofline, ThePointIsDeclaredWorkOverTime) {
  const auto p = rooflinePoint(gelu(50e-6));
  ASSERT_TRUE(p);
  EXPECT_DOUBLE_EQ(p->intensity, 0.625);
  EXPECT_DOUBLE_EQ(p->flopsPerSecond, 5.0 * (1 << 24) / 50e-6);
  RunResult copy = gelu(50e-6);
  copy.flops = 0;  // data movement has no place on it
  EXPECT_FALSE(rooflinePoint(copy));
  copy.flops.reset();
  EXPECT_FALSE(rooflinePoint(copy));
}

TEST(Roofline, TheCountedPointIsFlopsExecutedOverDramBytes) {
  RunResult r = gelu(50e-6);
  EXPECT_FALSE(measuredRooflinePoint(r));  // no counters read
  const double n = 1 << 24;
  for (const char* precision : {"h", "f", "d"})
    for (const char* op : {"add", "mul", "fma"}) {
      const std::string name =
          std::string("smsp__sass_thread_inst_executed_op_") + precision + op + "_pred_on.sum";
      // gelu's erf compiled: 12 FMAs, 3 multiplies and 2 adds an element, all in f32.
      const double count = precision == std::string("f") ? (op == std::string("fma")   ? 12 * n
                                                            : op == std::string("mul") ? 3 * n
                                                                                       : 2 * n)
                                                         : 0;
      r.metrics.push_back({name, count, "", ""});
    }
  EXPECT_FALSE(measuredRooflinePoint(r));  // no DRAM bytes
  r.metrics.push_back({"dram__bytes_read.sum", 4 * n, "B", ""});
  r.metrics.push_back({"dram__bytes_write.sum", 4 * n, "B", ""});
  const auto p = measuredRooflinePoint(r);
  ASSERT_TRUE(p);
  EXPECT_DOUBLE_EQ(p->intensity, (24 + 3 + 2) / 8.0);  // well above the 5 declared
  EXPECT_DOUBLE_EQ(p->flopsPerSecond, 29 * n / 50e-6);
}

TEST(Roofline, MemoryBelowTheRidgeComputeAbove) {
  const auto roofs = roofsFor(gelu(1), kH100);
  ASSERT_TRUE(roofs);
  EXPECT_EQ(roofs->memory->name, "dram");
  EXPECT_EQ(roofs->compute->name, "fp32");
  EXPECT_DOUBLE_EQ(roofs->ridge(), 20.0);
  EXPECT_DOUBLE_EQ(roofs->at(1.0), 3e12);
  EXPECT_DOUBLE_EQ(roofs->at(100.0), 60e12);
  RunResult hot = gelu(1);
  hot.mode = TimingMode::Hot;
  EXPECT_EQ(roofsFor(hot, kH100)->memory->name, "l2");
  RunResult dp = gelu(1);
  dp.problem.set("dtype", "f64");
  EXPECT_EQ(roofsFor(dp, kH100)->compute->name, "fp64");
  EXPECT_FALSE(roofsFor(gelu(1), {{"dram", 3e12, 0, 0}}));  // no compute roof measured
}

TEST(Roofline, AReadingSaysWhatBoundsItAndFlagsAPointAboveTheRoof) {
  // 134 MB at 3e12 B/s take 44.7 us: 46 us is 0.97 of the DRAM roof.
  const auto near = readRoofline(gelu(46e-6), kH100);
  ASSERT_TRUE(near);
  EXPECT_NEAR(near->ofRoof, 0.973, 0.001);
  EXPECT_FALSE(near->aboveRoof);
  EXPECT_NE(near->sentence.find("DRAM-bound"), std::string::npos) << near->sentence;
  const auto above = readRoofline(gelu(30e-6), kH100);
  ASSERT_TRUE(above);
  EXPECT_TRUE(above->aboveRoof);
  EXPECT_NE(above->sentence.find("no kernel passes"), std::string::npos) << above->sentence;
}

}  // namespace
}  // namespace kwb
