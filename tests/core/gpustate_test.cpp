#include "core/gpustate.h"

#include <gtest/gtest.h>

namespace kwb {
namespace {

double value(const std::vector<Metric>& metrics, const std::string& name) {
  for (const auto& m : metrics)
    if (m.name == name) return m.value;
  return -1;
}

TEST(GpuState, NvmlReadingsSummarized) {
  std::vector<GpuStateSample> samples(3);
  for (int i = 0; i < 3; ++i) {
    samples[i].smClockMhz = 1980 - 100 * i;
    samples[i].memClockMhz = 2619;
    samples[i].temperatureC = 40 + i;
    samples[i].powerW = 300 + 10 * i;
    samples[i].energyJ = 1000 + 2.5 * i;
  }
  const auto m = gpuStateMetrics(samples, GpuStateSource::Nvml, 7);
  EXPECT_DOUBLE_EQ(value(m, "gpu.sm_clock"), 1880);
  EXPECT_DOUBLE_EQ(value(m, "gpu.sm_clock_min"), 1780);
  EXPECT_DOUBLE_EQ(value(m, "gpu.mem_clock"), 2619);
  EXPECT_DOUBLE_EQ(value(m, "gpu.temperature"), 42);
  EXPECT_DOUBLE_EQ(value(m, "gpu.power"), 310);
  EXPECT_DOUBLE_EQ(value(m, "gpu.energy"), 5);
  EXPECT_DOUBLE_EQ(value(m, "gpu.state_samples"), 3);
  EXPECT_DOUBLE_EQ(value(m, "gpu.throttled_samples"), 7);
}

TEST(GpuState, AMeasuredClockIsNamedApartAndMissingReadingsAreLeftOut) {
  std::vector<GpuStateSample> samples(2);
  samples[0].smClockMhz = 1700;
  samples[1].smClockMhz = 1900;
  const auto m = gpuStateMetrics(samples, GpuStateSource::ClockKernel, 0);
  EXPECT_DOUBLE_EQ(value(m, "gpu.sm_clock_measured"), 1800);
  EXPECT_EQ(value(m, "gpu.sm_clock"), -1);
  EXPECT_EQ(value(m, "gpu.power"), -1);
  EXPECT_EQ(value(m, "gpu.energy"), -1);
  EXPECT_TRUE(gpuStateMetrics({}, GpuStateSource::Nvml, 0).empty());
}

}  // namespace
}  // namespace kwb
