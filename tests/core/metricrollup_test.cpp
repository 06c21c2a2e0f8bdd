#include "core/metricrollup.h"

#include <gtest/gtest.h>

namespace kwb {
namespace {

const Metric* find(const std::vector<Metric>& metrics, const std::string& name,
                   const std::string& kernel = {}) {
  for (const auto& m : metrics)
    if (m.name == name && m.kernel == kernel) return &m;
  return nullptr;
}

MetricPlan plan() {
  MetricPlan p;
  p.counters = {"dram__bytes_read.sum", "lts__t_sector_hit_rate.pct",
                "smsp__thread_inst_executed.sum", "smsp__inst_executed.sum",
                "gpu__time_duration.sum"};
  p.derived = {{"smsp__thread_inst_executed_per_inst_executed.ratio",
                "smsp__thread_inst_executed.sum", "smsp__inst_executed.sum"}};
  p.theoreticalOccupancy = true;
  return p;
}

TEST(MetricRollup, CountersAddRatesWeighByDurationRatiosDivideSums) {
  const std::vector<KernelCounters> kernels{{"gather", {100, 50, 320, 10, 1000}, 100},
                                            {"reduce", {300, 90, 160, 10, 3000}, 50}};
  const auto m = rollUpCounters(plan(), kernels);
  EXPECT_DOUBLE_EQ(find(m, "dram__bytes_read.sum")->value, 400);
  EXPECT_DOUBLE_EQ(find(m, "lts__t_sector_hit_rate.pct")->value, (50 * 1000 + 90 * 3000) / 4000.0);
  EXPECT_DOUBLE_EQ(find(m, "gpu__time_duration.sum")->value, 4000);
  EXPECT_DOUBLE_EQ(find(m, "smsp__thread_inst_executed_per_inst_executed.ratio")->value, 24);
  EXPECT_DOUBLE_EQ(find(m, "smsp__thread_inst_executed_per_inst_executed.ratio", "gather")->value,
                   32);
  EXPECT_DOUBLE_EQ(find(m, std::string(kTheoreticalOccupancy))->value, 62.5);
  EXPECT_DOUBLE_EQ(find(m, "dram__bytes_read.sum", "reduce")->value, 300);
  EXPECT_EQ(find(m, "dram__bytes_read.sum")->unit, "B");
}

TEST(MetricRollup, AKernelLaunchedTwiceKeepsBothReadings) {
  const std::vector<KernelCounters> kernels{{"step", {1, 0, 0, 0, 1}, -1},
                                            {"step", {2, 0, 0, 0, 1}, -1}};
  const auto m = rollUpCounters(plan(), kernels);
  EXPECT_DOUBLE_EQ(find(m, "dram__bytes_read.sum", "step")->value, 1);
  EXPECT_DOUBLE_EQ(find(m, "dram__bytes_read.sum", "step #2")->value, 2);
  EXPECT_EQ(find(m, std::string(kTheoreticalOccupancy)), nullptr);  // none was computed
}

TEST(MetricRollup, DurationsPerKernelAndPerCall) {
  // Two kernels per call, three calls, in start order.
  const std::vector<KernelTime> times{{"a", 1e-6}, {"b", 3e-6}, {"a", 2e-6},
                                      {"b", 3e-6}, {"a", 1e-6}, {"b", 5e-6}};
  const auto m = rollUpDurations(times, 3);
  EXPECT_DOUBLE_EQ(find(m, std::string(kActivityMedian))->value, 5e-6);  // totals 4, 5, 6 us
  EXPECT_DOUBLE_EQ(find(m, std::string(kActivityMin))->value, 4e-6);
  EXPECT_DOUBLE_EQ(find(m, std::string(kActivityMedian), "a")->value, 1e-6);
  EXPECT_DOUBLE_EQ(find(m, std::string(kActivityMedian), "b")->value, 3e-6);
  EXPECT_TRUE(rollUpDurations(times, 4).empty());  // records that do not split into calls
  EXPECT_TRUE(rollUpDurations({}, 3).empty());
}

}  // namespace
}  // namespace kwb
