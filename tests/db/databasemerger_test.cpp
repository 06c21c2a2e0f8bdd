#include "db/databasemerger.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "core/error.h"
#include "db/runstore.h"
#include "db/testdb.h"

namespace kwb {
namespace {

using testing::fakeDevice;
using testing::fakeRun;
using testing::TempDir;

std::string bytesOf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Two attendees' histories, each on its own GPU, and the instructor's.
class DatabaseMergerTest : public ::testing::Test {
 protected:
  DatabaseMergerTest() {
    RunStore alice(aliceFile);
    alice.upsertDevice(fakeDevice("GPU-aaaa", "NVIDIA H100 80GB HBM3"));
    alice.saveCeiling("GPU-aaaa", {3.0e12, 1 << 30, "memcpy", 111});
    const auto sweep = alice.createSweep("copy", "vectorized", {{"n", "2^20"}},
                                         nlohmann::json::array({"block_size=128,256"}));
    RunResult swept = fakeRun("vectorized", "f32", 1000, "GPU-aaaa");
    swept.metrics = {{"dram__bytes_read.sum", 4.0e6, "B", ""}};
    const auto first = alice.insertRun(swept, sweep);
    swept.launch.set("block_size", "128");
    alice.insertRun(swept, sweep);
    alice.addTag(first, "baseline");
    alice.addNote(first, "before the change");

    RunStore bob(bobFile);
    bob.upsertDevice(fakeDevice("GPU-bbbb", "NVIDIA A100-SXM4-40GB"));
    RunResult own = fakeRun("memcpy", "f16", 2000, "GPU-bbbb");
    own.code = KernelCode{"bob.cu", std::string(64, 'c'), "bob's kernel", ""};
    bob.insertRun(own);
  }

  TempDir dir;
  const std::string aliceFile = dir.file("alice.sqlite");
  const std::string bobFile = dir.file("bob.sqlite");
};

TEST_F(DatabaseMergerTest, CombinesRunsDevicesSweepsTagsAndNotes) {
  RunStore merged(dir.file("workshop.sqlite"));
  const MergeOutcome a = mergeDatabase(merged, aliceFile);
  const MergeOutcome b = mergeDatabase(merged, bobFile);
  EXPECT_EQ(a.runs, 2u);
  EXPECT_EQ(a.devices, 1u);
  EXPECT_EQ(b.runs, 1u);
  EXPECT_EQ(merged.count({}), 3u);
  EXPECT_EQ(merged.devices().size(), 2u);
  ASSERT_TRUE(merged.latestCeiling("GPU-aaaa"));
  EXPECT_EQ(merged.latestCeiling("GPU-aaaa")->measuredAt, 111);

  HistoryFilter onA100;
  onA100.device = "A100";
  ASSERT_EQ(merged.query(onA100).size(), 1u);
  EXPECT_EQ(merged.query(onA100)[0].result.variant, "memcpy");
  // An attendee's code comes with their runs.
  const auto bobs = merged.run(merged.query(onA100)[0].id);
  ASSERT_TRUE(bobs->result.code);
  EXPECT_EQ(bobs->result.code->source, "bob's kernel");

  HistoryFilter tagged;
  tagged.tag = "baseline";
  const auto baseline = merged.query(tagged);
  ASSERT_EQ(baseline.size(), 1u);
  const auto full = merged.run(baseline[0].id);
  ASSERT_TRUE(full);
  EXPECT_EQ(full->result.samples.size(), 3u);
  EXPECT_EQ(full->result.metrics.size(), 1u);
  ASSERT_EQ(merged.notes(baseline[0].id).size(), 1u);
  EXPECT_EQ(merged.notes(baseline[0].id)[0].text, "before the change");
  // Both runs of the sweep stay in one sweep.
  ASSERT_TRUE(full->sweepId);
  HistoryFilter sweep;
  sweep.sweepId = full->sweepId;
  EXPECT_EQ(merged.count(sweep), 2u);
}

TEST_F(DatabaseMergerTest, MergingTwiceAddsNothingAndLeavesTheSourceAsItWas) {
  const std::string before = bytesOf(aliceFile);
  RunStore merged(dir.file("workshop.sqlite"));
  mergeDatabase(merged, aliceFile);
  const MergeOutcome again = mergeDatabase(merged, aliceFile);
  EXPECT_EQ(again.runs, 0u);
  EXPECT_EQ(again.duplicates, 2u);
  EXPECT_EQ(merged.count({}), 2u);
  EXPECT_EQ(bytesOf(aliceFile), before);
}

TEST_F(DatabaseMergerTest, MissingOrForeignFilesAreRefusedWithNothingAdded) {
  RunStore merged(dir.file("workshop.sqlite"));
  try {
    mergeDatabase(merged, dir.file("nobody.sqlite"));
    FAIL() << "merged a missing file";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Database);
    EXPECT_NE(std::string(e.what()).find("no such history database"), std::string::npos);
  }
  std::ofstream(dir.file("notes.txt")) << "not a database at all, just some words";
  EXPECT_THROW(mergeDatabase(merged, dir.file("notes.txt")), Error);
  EXPECT_EQ(merged.count({}), 0u);
}

}  // namespace
}  // namespace kwb
