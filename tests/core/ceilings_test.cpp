#include "core/ceilings.h"

#include <gtest/gtest.h>

namespace kwb {
namespace {

DeviceInfo h100() {
  DeviceInfo d;
  d.name = "NVIDIA H100 80GB HBM3";
  d.ccMajor = 9;
  d.smCount = 132;
  d.peakBandwidth = 3.35e12;
  return d;
}

// The whitepaper's H100 SXM5 figures at its 1980 MHz boost clock.
TEST(Ceilings, DatasheetPeaksFromTheArchitecture) {
  const DeviceInfo d = h100();
  EXPECT_NEAR(*datasheetPeak(d, "fp32", 1980), 66.9e12, 0.1e12);
  EXPECT_NEAR(*datasheetPeak(d, "fp16", 1980), 133.8e12, 0.1e12);
  EXPECT_NEAR(*datasheetPeak(d, "bf16", 1980), 133.8e12, 0.1e12);
  EXPECT_NEAR(*datasheetPeak(d, "fp64", 1980), 33.5e12, 0.1e12);
  EXPECT_NEAR(*datasheetPeak(d, "shared", 1980), 33.45e12, 0.01e12);
  EXPECT_EQ(*datasheetPeak(d, "dram", 1980), 3.35e12);
  // At a lower clock, arithmetic scales with it; DRAM does not.
  EXPECT_NEAR(*datasheetPeak(d, "fp32", 990), 33.45e12, 0.1e12);
  EXPECT_EQ(*datasheetPeak(d, "dram", 990), 3.35e12);
  EXPECT_FALSE(datasheetPeak(d, "l2", 1980));  // not published
  EXPECT_FALSE(datasheetPeak(d, "fp32", 0));   // no clock, no figure
}

TEST(Ceilings, ArchitecturesDifferAndUnknownOnesHaveNone) {
  DeviceInfo a100 = h100();
  a100.ccMajor = 8;
  a100.smCount = 108;
  EXPECT_NEAR(*datasheetPeak(a100, "fp32", 1410), 19.5e12, 0.1e12);
  EXPECT_NEAR(*datasheetPeak(a100, "fp16", 1410), 78.0e12, 0.1e12);
  DeviceInfo turing = h100();
  turing.ccMajor = 7;
  turing.ccMinor = 5;
  EXPECT_FALSE(datasheetPeak(turing, "bf16", 1500));  // no bfloat16 arithmetic
  DeviceInfo future = h100();
  future.ccMajor = 42;
  EXPECT_FALSE(datasheetPeak(future, "fp32", 2000));
  EXPECT_TRUE(datasheetPeak(future, "shared", 2000));
}

TEST(Ceilings, FormatsInTheirUnits) {
  EXPECT_EQ(formatCeiling(*ceilingSpec("dram"), 3.012e12), "3.01 TB/s");
  EXPECT_EQ(formatCeiling(*ceilingSpec("fp64"), 512e9), "512.0 GFLOP/s");
  EXPECT_EQ(formatCeiling(*ceilingSpec("fp32"), 0), "-");
  EXPECT_EQ(ceilingSpec("tensor"), nullptr);
}

}  // namespace
}  // namespace kwb
