#include "db/baselinestore.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "db/runstore.h"
#include "db/testdb.h"

namespace kwb {
namespace {

using testing::TempDir;

class BaselineStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store = std::make_unique<RunStore>(dir.file("h.sqlite"));
    store->upsertDevice(testing::fakeDevice("GPU-aaaa", "NVIDIA H100 80GB HBM3"));
    store->upsertDevice(testing::fakeDevice("GPU-bbbb", "NVIDIA H200"));
    baselines = std::make_unique<BaselineStore>(store->database());
  }
  std::int64_t add(std::int64_t startedAt, const std::string& uuid = "GPU-aaaa",
                   const std::string& n = "1048576", const std::string& hash = "") {
    RunResult r = testing::fakeRun("vectorized", "f32", startedAt, uuid);
    r.problem.set("n", n);
    if (!hash.empty()) r.code = KernelCode{"copy.cu", hash, "source " + hash, ""};
    return store->insertRun(r);
  }
  TempDir dir;
  std::unique_ptr<RunStore> store;
  std::unique_ptr<BaselineStore> baselines;
};

TEST_F(BaselineStoreTest, LaterRunsOfTheSameConfigurationFindTheirBaseline) {
  const auto before = add(500);
  const auto baseline = add(1000);
  const auto later = add(2000);
  const auto otherDevice = add(3000, "GPU-bbbb");
  const auto otherSize = add(4000, "GPU-aaaa", "2097152");
  baselines->mark(baseline, false);
  ASSERT_TRUE(baselines->of(later));
  EXPECT_EQ(baselines->of(later)->runId, baseline);
  EXPECT_FALSE(baselines->of(before)) << "only later runs are compared";
  EXPECT_FALSE(baselines->of(baseline));
  EXPECT_FALSE(baselines->of(otherDevice));
  EXPECT_FALSE(baselines->of(otherSize));
  const auto newest = baselines->newestRuns();
  ASSERT_EQ(newest.size(), 1u);
  EXPECT_EQ(newest[0].baselineId, baseline);
  EXPECT_EQ(newest[0].runId, later);
}

TEST_F(BaselineStoreTest, AConfigurationHasOneBaselineAndDeletingTheRunDropsIt) {
  const auto first = add(1000);
  const auto second = add(2000);
  baselines->mark(first, false);
  baselines->mark(second, false);
  ASSERT_EQ(baselines->all().size(), 1u);
  EXPECT_EQ(baselines->all()[0].runId, second);
  const std::int64_t ids[] = {second};
  store->deleteRuns(ids);
  EXPECT_TRUE(baselines->all().empty());
  EXPECT_FALSE(baselines->clear(first));
}

// A kernel file's runs match across source versions unless the user asked for the same source.
TEST_F(BaselineStoreTest, SourceVersionsMatchAsTheUserPicks) {
  const auto baseline = add(1000, "GPU-aaaa", "1048576", "aaa");
  const auto sameSource = add(2000, "GPU-aaaa", "1048576", "aaa");
  const auto edited = add(3000, "GPU-aaaa", "1048576", "bbb");
  baselines->mark(baseline, false);
  EXPECT_TRUE(baselines->of(edited));
  baselines->mark(baseline, true);
  EXPECT_FALSE(baselines->of(edited));
  EXPECT_TRUE(baselines->of(sameSource));
  EXPECT_TRUE(baselines->all()[0].sameSource);
}

TEST_F(BaselineStoreTest, ARunWithoutSamplesCannotBeOne) {
  RunResult failed = testing::fakeRun("vectorized", "f32", 1000);
  failed.status = RunStatus::Failed;
  failed.samples.clear();
  failed.stats = {};
  const auto id = store->insertRun(failed);
  EXPECT_THROW(baselines->mark(id, false), Error);
  EXPECT_THROW(baselines->mark(id + 100, false), Error);
  EXPECT_TRUE(baselines->all().empty());
}

}  // namespace
}  // namespace kwb
