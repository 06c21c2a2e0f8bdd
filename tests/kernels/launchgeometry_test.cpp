#include "kernels/launchgeometry.h"

#include <gtest/gtest.h>

#include "kernels/h100device.h"

namespace kwb {
namespace {

TEST(LaunchGeometry, WavesFollowOneFlowsRule) {
  // 132 SMs x 2048 threads / 256 = 1056 blocks per wave.
  EXPECT_EQ(gridForWaves(std::uint64_t{1} << 30, 256, 1, h100()), 1056);
  EXPECT_EQ(gridForWaves(std::uint64_t{1} << 30, 256, 32, h100()), 1056 * 32);
  // Never more blocks than the work needs, never fewer than one.
  EXPECT_EQ(gridForWaves(1000, 256, 32, h100()), 4);
  EXPECT_EQ(gridForWaves(0, 256, 32, h100()), 1);
}

TEST(LaunchGeometry, DescribesTheGrid) {
  ParamSet d = describeGrid(2112, 256, h100());
  EXPECT_EQ(d.get("grid"), "2112");
  EXPECT_EQ(d.get("waves_effective"), "2.00");
  EXPECT_EQ(d.get("blocks_per_sm"), "16.00");
}

}  // namespace
}  // namespace kwb
