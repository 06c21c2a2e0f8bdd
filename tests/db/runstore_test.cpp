#include "db/runstore.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "db/database.h"
#include "db/testdb.h"

namespace kwb {
namespace {

using testing::fakeDevice;
using testing::fakeRun;
using testing::TempDir;

class RunStoreTest : public ::testing::Test {
 protected:
  RunStoreTest() : store(dir.file("h.sqlite")) {
    store.upsertDevice(fakeDevice("GPU-aaaa", "NVIDIA H100 80GB HBM3"));
    store.upsertDevice(fakeDevice("GPU-bbbb", "NVIDIA A100-SXM4-40GB"));
  }
  TempDir dir;
  RunStore store;
};

TEST_F(RunStoreTest, StoresAndReadsBackARunInFull) {
  RunResult r = fakeRun("vectorized", "f32", 1000);
  r.derived.set("grid", "4096");
  r.metrics = {{"dram__bytes_read.sum", 4.0e6, "B", ""},
               {"dram__bytes_read.sum", 3.0e6, "B", "copyKernel"}};
  r.throttledSamples = {1};
  r.notice = "Hardware counters need permission.";
  const auto id = store.insertRun(r);
  auto back = store.run(id);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->deviceName, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(back->result.problem, r.problem);
  EXPECT_EQ(back->result.launch, r.launch);
  EXPECT_EQ(back->result.derived, r.derived);
  EXPECT_EQ(back->result.samples, r.samples);
  EXPECT_EQ(back->result.metrics, r.metrics);
  EXPECT_EQ(back->result.throttledSamples, r.throttledSamples);
  EXPECT_EQ(back->result.notice, r.notice);
  EXPECT_DOUBLE_EQ(back->result.stats.median, r.stats.median);
  EXPECT_DOUBLE_EQ(back->result.bandwidth, r.bandwidth);
  EXPECT_EQ(back->result.status, RunStatus::Ok);
  EXPECT_FALSE(store.run(id + 100));
}

TEST_F(RunStoreTest, InsertsInsideABatchCommitOrRollBackTogether) {
  {
    Transaction batch(store.database());
    store.insertRun(fakeRun("memcpy", "f32", 1000));
    store.insertRun(fakeRun("memcpy", "f32", 1001));
  }  // left without commit: both inserts go
  EXPECT_EQ(store.count({}), 0u);
  {
    Transaction batch(store.database());
    store.insertRun(fakeRun("memcpy", "f32", 1000));
    {
      Transaction inner(store.database());
      store.insertRun(fakeRun("memcpy", "f32", 1001));
    }  // the inner one rolls back alone
    batch.commit();
  }
  EXPECT_EQ(store.count({}), 1u);
}

TEST_F(RunStoreTest, FailedRunsAreStoredWithTheirError) {
  RunResult r = fakeRun("vectorized", "f32", 1000);
  r.status = RunStatus::Failed;
  r.error = "cudaMemcpyAsync(...) failed: an illegal memory access";
  r.samples.clear();
  r.stats = {};
  const auto id = store.insertRun(r);
  EXPECT_EQ(store.run(id)->result.error, r.error);
  HistoryFilter failed;
  failed.status = "failed";
  EXPECT_EQ(store.count(failed), 1u);
}

TEST_F(RunStoreTest, FiltersByEveryField) {
  store.insertRun(fakeRun("memcpy", "f32", 1000));
  store.insertRun(fakeRun("vectorized", "f16", 2000));
  store.insertRun(fakeRun("vectorized", "f32", 3000, "GPU-bbbb"));

  auto count = [&](auto setup) {
    HistoryFilter f;
    setup(f);
    return store.query(f).size();
  };
  EXPECT_EQ(count([](HistoryFilter&) {}), 3u);
  EXPECT_EQ(count([](HistoryFilter& f) { f.variant = "vectorized"; }), 2u);
  EXPECT_EQ(count([](HistoryFilter& f) { f.dtype = "f16"; }), 1u);
  EXPECT_EQ(count([](HistoryFilter& f) { f.family = "elementwise"; }), 0u);
  EXPECT_EQ(count([](HistoryFilter& f) { f.device = "GPU-bbbb"; }), 1u);
  EXPECT_EQ(count([](HistoryFilter& f) { f.device = "H100"; }), 2u);
  EXPECT_EQ(count([](HistoryFilter& f) { f.since = 2000; }), 2u);
  EXPECT_EQ(count([](HistoryFilter& f) { f.until = 2000; }), 1u);
  EXPECT_EQ(count([](HistoryFilter& f) { f.text = "memcpy"; }), 1u);
  EXPECT_EQ(count([](HistoryFilter& f) { f.text = "copy/memcpy"; }), 1u);  // as the GUI shows it
  EXPECT_EQ(count([](HistoryFilter& f) { f.text = "f16"; }), 1u);
  EXPECT_EQ(count([](HistoryFilter& f) { f.text = "100%"; }), 0u);  // % is literal
  EXPECT_EQ(count([](HistoryFilter& f) { f.limit = 2; }), 2u);
  // Filters combine.
  EXPECT_EQ(count([](HistoryFilter& f) {
              f.variant = "vectorized";
              f.since = 2000;
              f.device = "A100";
            }),
            1u);
}

TEST_F(RunStoreTest, NewestFirstWithPaging) {
  for (int t = 1; t <= 5; ++t) store.insertRun(fakeRun("memcpy", "f32", t * 1000));
  HistoryFilter f;
  f.limit = 2;
  f.offset = 1;
  auto page = store.query(f);
  ASSERT_EQ(page.size(), 2u);
  EXPECT_EQ(page[0].result.startedAt, 4000);
  EXPECT_EQ(page[1].result.startedAt, 3000);
  f.newestFirst = false;
  EXPECT_EQ(store.query(f)[0].result.startedAt, 2000);
  EXPECT_EQ(store.count(f), 5u);
}

// A job's runs are stored with its tags in one call.
TEST_F(RunStoreTest, ARunStoredWithItsTags) {
  const auto id =
      store.insertRun(fakeRun("memcpy", "f32", 1000), std::nullopt, {"lesson:copy-1", "tune"});
  EXPECT_EQ(store.run(id)->tags, (std::vector<std::string>{"lesson:copy-1", "tune"}));
  EXPECT_TRUE(
      store.run(store.insertRun(fakeRun("memcpy", "f32", 2000), std::nullopt, {}))->tags.empty());
}

TEST_F(RunStoreTest, TagsNotesAndTheirSearch) {
  const auto id = store.insertRun(fakeRun("memcpy", "f32", 1000));
  store.insertRun(fakeRun("memcpy", "f32", 2000));
  store.addTag(id, "baseline");
  store.addTag(id, "baseline");  // once is enough
  store.addTag(id, "report");
  store.addNote(id, "clocks looked low on this one");
  EXPECT_EQ(store.run(id)->tags, (std::vector<std::string>{"baseline", "report"}));
  ASSERT_EQ(store.notes(id).size(), 1u);

  HistoryFilter byTag;
  byTag.tag = "baseline";
  EXPECT_EQ(store.count(byTag), 1u);
  HistoryFilter byNote;
  byNote.text = "clocks";
  EXPECT_EQ(store.count(byNote), 1u);

  store.removeTag(id, "baseline");
  EXPECT_EQ(store.count(byTag), 0u);
  EXPECT_THROW(store.addTag(id + 50, "x"), Error);
  EXPECT_THROW(store.addNote(id + 50, "x"), Error);
}

TEST_F(RunStoreTest, DeleteRemovesSamplesTagsAndNotesToo) {
  const auto keep = store.insertRun(fakeRun("memcpy", "f32", 1000));
  const auto drop = store.insertRun(fakeRun("memcpy", "f32", 2000));
  store.addTag(drop, "x");
  store.addNote(drop, "y");
  const std::int64_t ids[] = {drop, drop + 99};
  EXPECT_EQ(store.deleteRuns(ids), 1u);
  EXPECT_FALSE(store.run(drop));
  EXPECT_EQ(store.run(keep)->result.samples.size(), 3u);
  for (const char* table : {"samples", "tags", "notes"}) {
    auto s = store.database().prepare(std::string("SELECT count(*) FROM ") + table +
                                      " WHERE run_id = ?");
    s.bind(1, drop);
    ASSERT_TRUE(s.step());
    EXPECT_EQ(s.int64(0), 0) << table;
  }
}

TEST_F(RunStoreTest, SweepsGroupTheirRuns) {
  const auto sweep = store.createSweep("copy", "vectorized", {{"n", "1024"}}, {"waves=1,2"});
  store.insertRun(fakeRun("vectorized", "f32", 1000), sweep);
  store.insertRun(fakeRun("vectorized", "f32", 2000), sweep);
  store.insertRun(fakeRun("vectorized", "f32", 3000));
  HistoryFilter f;
  f.sweepId = sweep;
  auto runs = store.query(f);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].sweepId, sweep);
}

TEST_F(RunStoreTest, KeepsTheLatestCopyCeilingPerDevice) {
  EXPECT_FALSE(store.latestCeiling("GPU-aaaa"));
  store.saveCeiling("GPU-aaaa", {2.9e12, 1 << 30, "memcpy", 100});
  store.saveCeiling("GPU-aaaa", {3.0e12, 1 << 30, "vectorized", 200});
  store.saveCeiling("GPU-bbbb", {1.3e12, 1 << 30, "memcpy", 300});
  auto c = store.latestCeiling("GPU-aaaa");
  ASSERT_TRUE(c);
  EXPECT_DOUBLE_EQ(c->bandwidth, 3.0e12);
  EXPECT_EQ(c->method, "vectorized");
}

TEST_F(RunStoreTest, DevicesAndDistinctValuesForMenus) {
  store.insertRun(fakeRun("memcpy", "f32", 1000));
  store.insertRun(fakeRun("vectorized", "f16", 2000));
  EXPECT_EQ(store.devices().size(), 2u);
  EXPECT_EQ(store.devices()[0].computeCapability(), "9.0");
  EXPECT_EQ(store.distinct("variant"), (std::vector<std::string>{"memcpy", "vectorized"}));
  EXPECT_EQ(store.distinct("dtype"), (std::vector<std::string>{"f16", "f32"}));
  EXPECT_THROW(store.distinct("error; DROP TABLE runs"), Error);
}

TEST_F(RunStoreTest, AFailedInsertLeavesNothingBehind) {
  store.insertRun(fakeRun("memcpy", "f32", 1000));
  RunResult bad = fakeRun("memcpy", "f32", 2000);
  bad.metrics = {{"m", 1, "", ""}, {"m", 2, "", ""}};  // the same metric twice violates the key
  EXPECT_THROW(store.insertRun(bad), Error);
  EXPECT_EQ(store.count({}), 1u);
  auto s = store.database().prepare("SELECT count(*) FROM samples");
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.int64(0), 3);
}

}  // namespace
}  // namespace kwb

namespace kwb {
namespace {

// A kernel file's code is kept once per version; a list carries its hash, one run its text.
TEST_F(RunStoreTest, KeepsTheCodeOfKernelFilesOncePerVersion) {
  RunResult r = fakeRun("my_kernel", "f32", 1000);
  r.code = KernelCode{"k.cu", std::string(64, 'a'), "/* kwb ... */ code v1", " spec"};
  const auto first = store.insertRun(r);
  const auto second = store.insertRun(r);
  r.code->hash = std::string(64, 'b');
  r.code->source = "code v2";
  const auto third = store.insertRun(r);
  EXPECT_EQ(store.run(first)->result.code, store.run(second)->result.code);
  EXPECT_EQ(store.run(third)->result.code->source, "code v2");
  EXPECT_EQ(store.run(first)->result.code->spec, " spec");
  auto count = store.database().prepare("SELECT count(*) FROM kernel_sources");
  ASSERT_TRUE(count.step());
  EXPECT_EQ(count.int64(0), 2);
  const auto listed = store.query({});
  ASSERT_TRUE(listed.front().result.code);
  EXPECT_EQ(listed.front().result.code->hash, std::string(64, 'b'));
  EXPECT_TRUE(listed.front().result.code->source.empty());
  EXPECT_FALSE(store.run(store.insertRun(fakeRun("vectorized", "f32", 10)))->result.code);
}

// Each ceiling's latest measurement is what the device has; older ones stay behind.
TEST(RunStoreCeilings, TheLatestOfEachCeilingPerDevice) {
  testing::TempDir dir;
  RunStore store(dir.file("h.sqlite"));
  store.upsertDevice(testing::fakeDevice("GPU-aaaa", "A"));
  store.upsertDevice(testing::fakeDevice("GPU-bbbb", "B"));
  store.saveDeviceCeilings("GPU-aaaa", {{"fp32", 50e12, 1755, 1000}, {"dram", 3e12, 0, 1000}});
  store.saveDeviceCeilings("GPU-aaaa", {{"fp32", 60e12, 1980, 2000}});
  store.saveDeviceCeilings("GPU-bbbb", {{"l2", 9e12, 1980, 1500}});
  const auto a = store.deviceCeilings("GPU-aaaa");
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].name, "dram");  // in kCeilings' order
  EXPECT_EQ(a[1].name, "fp32");
  EXPECT_EQ(a[1].value, 60e12);
  EXPECT_EQ(a[1].smClockMhz, 1980);
  EXPECT_EQ(store.deviceCeilings("GPU-bbbb").size(), 1u);
  EXPECT_TRUE(store.deviceCeilings("GPU-cccc").empty());
}

}  // namespace
}  // namespace kwb
