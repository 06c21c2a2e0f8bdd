#include <gtest/gtest.h>

#include <regex>

#include "core/error.h"
#include "measure/devicequery.h"
#include "measure/runner.h"

namespace kwb {
namespace {

TEST(DeviceGpu, DescribesTheDevice) {
  const DeviceInfo d = queryDevice(0);
  EXPECT_FALSE(d.name.empty());
  EXPECT_TRUE(std::regex_match(
      d.uuid, std::regex("GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")))
      << d.uuid;
  EXPECT_GE(d.ccMajor, 5);
  EXPECT_GT(d.smCount, 0);
  EXPECT_GE(d.maxThreadsPerSm, 1024);
  EXPECT_EQ(d.maxThreadsPerBlock, 1024);
  EXPECT_GT(d.l2Bytes, 0);
  EXPECT_GT(d.memBusBits, 0);
  EXPECT_GT(d.memClockKhz, 0);
  // HBM or GDDR: somewhere between 100 GB/s and 20 TB/s.
  EXPECT_GT(d.peakBandwidth, 1e11);
  EXPECT_LT(d.peakBandwidth, 2e13);
  EXPECT_GE(d.driverVersion, d.runtimeVersion);
  EXPECT_EQ(queryDevices().size(), static_cast<std::size_t>(deviceCount()));
}

TEST(DeviceGpu, OrdinalsOutsideTheRangeAreParameterErrors) {
  try {
    queryDevice(deviceCount());
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.param(), "device");
  }
}

TEST(DeviceGpu, CopyCeilingIsBelowPeakAndNearIt) {
  Runner runner(0);
  const CopyCeiling c = runner.measureCopyCeiling();
  EXPECT_GT(c.bandwidth, 0.5 * runner.device().peakBandwidth);
  EXPECT_LT(c.bandwidth, 1.02 * runner.device().peakBandwidth);
  EXPECT_GE(c.bytes, 2u << 20);
  EXPECT_TRUE(c.method == "memcpy" || c.method == "vectorized");
}

}  // namespace
}  // namespace kwb
