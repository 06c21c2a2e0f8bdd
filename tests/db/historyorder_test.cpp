#include "db/historyorder.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "db/database.h"
#include "db/runstore.h"
#include "db/testdb.h"

namespace kwb {
namespace {

using testing::TempDir;

// Every column the history page sorts by is a walk of an index: no sort.
TEST(HistoryOrder, EveryColumnIsAnIndexWalk) {
  TempDir dir;
  RunStore store(dir.file("h.sqlite"));
  for (const char* column : {"started_at", "kernel", "dtype", "problem", "launch", "status",
                             "time_median_s", "bandwidth_Bps", "ceiling_fraction", "tags"}) {
    auto plan = store.database().prepare("EXPLAIN QUERY PLAN " + historyOrderQuery(column));
    std::string steps;
    while (plan.step()) steps += plan.text(3) + "\n";
    EXPECT_NE(steps.find("INDEX runs_by_"), std::string::npos) << column << ": " << steps;
    EXPECT_EQ(steps.find("TEMP B-TREE"), std::string::npos) << column << ": " << steps;
  }
}

class HistoryOrderRuns : public ::testing::Test {
 protected:
  void SetUp() override {
    // Devices seen in the order B, A: the device column sorts by name all the same.
    store_.upsertDevice(testing::fakeDevice("GPU-bbbb", "B GPU"));
    store_.upsertDevice(testing::fakeDevice("GPU-aaaa", "A GPU"));
    const double medians[] = {3e-5, 1e-5, 4e-5, 2e-5, 5e-5};
    for (int i = 0; i < 5; ++i) {
      RunResult r = testing::fakeRun(i % 2 ? "vectorized" : "memcpy", i < 3 ? "f32" : "f16",
                                     1000 * (5 - i), i % 2 ? "GPU-aaaa" : "GPU-bbbb");
      r.stats.median = medians[i];
      r.bandwidth = static_cast<double>(r.bytes) / medians[i];
      ids_.push_back(store_.insertRun(r));
    }
    store_.addTag(ids_[3], "zeta");
    store_.addTag(ids_[1], "alpha");
  }
  std::vector<std::int64_t> ordered(const HistoryFilter& filter, const char* column,
                                    bool descending = false) {
    return orderedRunIds(store_.database(), filter, column, descending);
  }

  TempDir dir_;
  RunStore store_{dir_.file("h.sqlite")};
  std::vector<std::int64_t> ids_;  // started at 5000, 4000, ... 1000
};

TEST_F(HistoryOrderRuns, OrdersByTheColumnTiesById) {
  const auto& i = ids_;
  EXPECT_EQ(ordered({}, "started_at"), (std::vector{i[4], i[3], i[2], i[1], i[0]}));
  EXPECT_EQ(ordered({}, "started_at", true), (std::vector{i[0], i[1], i[2], i[3], i[4]}));
  EXPECT_EQ(ordered({}, "time_median_s"), (std::vector{i[1], i[3], i[0], i[2], i[4]}));
  EXPECT_EQ(ordered({}, "bandwidth_Bps", true), (std::vector{i[1], i[3], i[0], i[2], i[4]}));
  // Kernel: memcpy before vectorized, each in time order.
  EXPECT_EQ(ordered({}, "kernel"), (std::vector{i[4], i[2], i[0], i[3], i[1]}));
  EXPECT_EQ(ordered({}, "dtype"), (std::vector{i[3], i[4], i[0], i[1], i[2]}));
  // Untagged first, then alpha, zeta.
  EXPECT_EQ(ordered({}, "tags"), (std::vector{i[0], i[2], i[4], i[1], i[3]}));
  // A GPU's runs (the odd ones) before B GPU's, each device's in time order.
  EXPECT_EQ(ordered({}, "device"), (std::vector{i[3], i[1], i[4], i[2], i[0]}));
  EXPECT_EQ(ordered({}, "device", true), (std::vector{i[0], i[2], i[4], i[1], i[3]}));
}

TEST_F(HistoryOrderRuns, KeepsTheRunsEveryFilterTermKeeps) {
  const auto& i = ids_;
  HistoryFilter filter;
  filter.variant = "memcpy";
  EXPECT_EQ(ordered(filter, "time_median_s"), (std::vector{i[0], i[2], i[4]}));
  filter.dtype = "f32";
  EXPECT_EQ(ordered(filter, "time_median_s"), (std::vector{i[0], i[2]}));
  filter.since = 3000;
  EXPECT_EQ(ordered(filter, "time_median_s"), (std::vector{i[0], i[2]}));
  filter.since = 4000;
  EXPECT_EQ(ordered(filter, "time_median_s"), (std::vector{i[0]}));
  HistoryFilter text;
  text.text = "vector";
  EXPECT_EQ(ordered(text, "started_at", true), (std::vector{i[1], i[3]}));
  text.device = "A GPU";
  text.tag = "zeta";
  EXPECT_EQ(ordered(text, "started_at"), (std::vector{i[3]}));
  // The same runs as the store's own query of the filter.
  EXPECT_EQ(store_.count(text), 1u);
}

}  // namespace
}  // namespace kwb
