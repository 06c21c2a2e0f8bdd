#include <gtest/gtest.h>

#include "core/ceilings.h"
#include "measure/runner.h"

namespace kwb {
namespace {

// Every ceiling the device has is measured; each is within 10 % below the datasheet's figure at
// the SM clock it ran at, and never above it (a measurement above a peak is a wrong
// measurement). DRAM's datasheet figure is what the memory's clock and bus could move, which no
// copy or read reaches: DRAM is held to 80 % of it. L2 has no published figure: it beats DRAM.
TEST(CeilingsGpu, MeasuredCeilingsMeetTheDatasheet) {
  Runner runner(0);
  const DeviceInfo& device = runner.device();
  const std::vector<DeviceCeiling> ceilings = runner.measureCeilings();
  double dram = 0, l2 = 0;
  for (const DeviceCeiling& c : ceilings) {
    const CeilingSpec& spec = *ceilingSpec(c.name);
    EXPECT_GT(c.value, 0) << c.name;
    if (c.name == "dram") dram = c.value;
    if (c.name == "l2") l2 = c.value;
    const auto peak = datasheetPeak(device, c.name, c.smClockMhz);
    std::printf("%-14s %14s  datasheet at %4.0f MHz %14s  %.3f\n", std::string(spec.label).c_str(),
                formatCeiling(spec, c.value).c_str(), c.smClockMhz,
                peak ? formatCeiling(spec, *peak).c_str() : "-", peak ? c.value / *peak : 0.0);
    if (!peak) continue;
    EXPECT_LE(c.value, *peak * 1.02) << c.name;
    EXPECT_GE(c.value, *peak * (c.name == "dram" ? 0.8 : 0.9)) << c.name;
  }
  EXPECT_EQ(ceilings.size(), device.ccMajor >= 8 ? kCeilings.size() : kCeilings.size() - 1);
  EXPECT_GT(l2, 1.5 * dram);
}

}  // namespace
}  // namespace kwb
