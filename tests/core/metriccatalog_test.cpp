#include "core/metriccatalog.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "core/error.h"

namespace kwb {
namespace {

bool contains(const std::vector<std::string>& list, const std::string& name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

TEST(MetricCatalog, SetsAndNamesMergeWithoutDuplicates) {
  const MetricPlan plan =
      planMetrics("memory,compute,dram__bytes_read.sum,smsp__inst_executed.sum");
  EXPECT_TRUE(contains(plan.counters, "dram__bytes_write.sum"));
  EXPECT_TRUE(contains(plan.counters, "sm__throughput.avg.pct_of_peak_sustained_elapsed"));
  EXPECT_EQ(std::count(plan.counters.begin(), plan.counters.end(), "dram__bytes_read.sum"), 1);
  EXPECT_EQ(std::count(plan.counters.begin(), plan.counters.end(), "smsp__inst_executed.sum"), 1);
  EXPECT_EQ(plan.counters.back(), kDurationMetric);  // every plan reads durations for weights
  EXPECT_FALSE(plan.theoreticalOccupancy);
}

TEST(MetricCatalog, AllHasEverySetsMetricsAndDerivedRatios) {
  const MetricPlan plan = planMetrics("all");
  for (const auto& set : metricSets())
    for (const auto& counter : set.counters) EXPECT_TRUE(contains(plan.counters, counter));
  EXPECT_TRUE(plan.theoreticalOccupancy);
  EXPECT_EQ(plan.derived.size(), 3u);
  for (const auto& d : plan.derived) {
    EXPECT_TRUE(contains(plan.counters, d.numerator)) << d.name;
    EXPECT_TRUE(contains(plan.counters, d.denominator)) << d.name;
  }
}

TEST(MetricCatalog, EmptyTextPlansNothing) {
  EXPECT_TRUE(planMetrics("").empty());
  EXPECT_TRUE(planMetrics(",,").empty());
}

TEST(MetricCatalog, UnknownWordsNameTheSets) {
  try {
    planMetrics("memory,bandwidth");
    FAIL() << "'bandwidth' is no set";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Param);
    EXPECT_EQ(e.param(), "metrics");
    EXPECT_NE(std::string(e.what()).find("'bandwidth'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("divergence"), std::string::npos);
  }
}

TEST(MetricCatalog, AliasesUnitsAndRollups) {
  EXPECT_EQ(metricAliases("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum").size(), 1u);
  EXPECT_TRUE(metricAliases("smsp__inst_executed.sum").empty());
  EXPECT_EQ(metricUnit("dram__bytes_read.sum"), "B");
  EXPECT_EQ(metricUnit("lts__t_sector_hit_rate.pct"), "%");
  EXPECT_EQ(metricUnit("dram__throughput.avg.pct_of_peak_sustained_elapsed"), "%");
  EXPECT_EQ(metricUnit("gpu__time_duration.sum"), "ns");
  EXPECT_EQ(metricUnit("smsp__inst_executed.sum"), "");
  EXPECT_TRUE(isAdditive("dram__bytes_read.sum"));
  EXPECT_FALSE(isAdditive("lts__t_sector_hit_rate.pct"));
  EXPECT_FALSE(isAdditive("dram__bytes.sum.per_second"));
}

}  // namespace
}  // namespace kwb
