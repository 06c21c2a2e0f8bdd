#include "db/migrations.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "db/database.h"
#include "db/runstore.h"
#include "db/testdb.h"

namespace kwb {
namespace {

using testing::TempDir;

// The first column of the query's first row, as text; empty without a row.
std::string firstValue(Database& db, const std::string& sql) {
  auto s = db.prepare(sql);
  return s.step() ? s.text(0) : std::string();
}

// Takes a history back to version 5: what versions 6 and 7 added, dropped.
constexpr const char* kDropSinceVersion6 =
    "ALTER TABLE runs DROP COLUMN flops; DROP TABLE device_ceilings; DROP TRIGGER tags_added; DROP "
    "TRIGGER tags_removed; DROP TRIGGER "
    "run_text_removed; "
    "DROP TABLE run_text; DROP INDEX runs_by_dtype; DROP INDEX runs_by_problem; "
    "DROP INDEX runs_by_launch; DROP INDEX runs_by_status; DROP INDEX runs_by_median; "
    "DROP INDEX runs_by_bandwidth; DROP INDEX runs_by_ceiling; DROP INDEX runs_by_tags; "
    "ALTER TABLE runs DROP COLUMN tags; ";

TEST(Migrations, FreshDatabaseGetsTheLatestSchema) {
  TempDir dir;
  Database db(dir.file("h.sqlite"));
  EXPECT_EQ(schemaVersion(db), 0);
  migrate(db);
  EXPECT_EQ(schemaVersion(db), latestSchemaVersion());
  for (const char* table : {"devices", "copy_ceilings", "sweeps", "runs", "samples", "metrics",
                            "tags", "notes", "sass_listings", "kernel_sources", "baselines"}) {
    auto s = db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?");
    s.bind(1, std::string_view(table));
    ASSERT_TRUE(s.step());
    EXPECT_EQ(s.int64(0), 1) << table;
  }
  migrate(db);  // a second time changes nothing
  EXPECT_EQ(schemaVersion(db), latestSchemaVersion());
}

// A version-1 history (made by dropping what versions 2 and 3 added) keeps its runs when upgraded.
TEST(Migrations, VersionOneRunsSurviveTheUpgrade) {
  TempDir dir;
  const std::string path = dir.file("h.sqlite");
  {
    RunStore store(path);
    store.upsertDevice(testing::fakeDevice("GPU-aaaa", "NVIDIA H100 80GB HBM3"));
    store.insertRun(testing::fakeRun("memcpy", "f32", 1000));
    store.database().exec(
        std::string(kDropSinceVersion6) +
        "ALTER TABLE runs DROP COLUMN notice; ALTER TABLE samples DROP COLUMN throttled; "
        "DROP TABLE sass_listings; DROP TABLE kernel_sources; "
        "ALTER TABLE runs DROP COLUMN kernel_file; ALTER TABLE runs DROP COLUMN source_hash; "
        "ALTER TABLE runs DROP COLUMN l2_flush; ALTER TABLE runs DROP COLUMN event_overhead; "
        "DROP TABLE baselines; PRAGMA user_version = 1");
  }
  RunStore store(path);
  EXPECT_EQ(schemaVersion(store.database()), latestSchemaVersion());
  const auto runs = store.query({});
  ASSERT_EQ(runs.size(), 1u);
  const auto run = store.run(runs.front().id);
  ASSERT_TRUE(run);
  EXPECT_EQ(run->result.notice, "");
  EXPECT_TRUE(run->result.throttledSamples.empty());
  EXPECT_FALSE(run->result.samples.empty());
  EXPECT_FALSE(run->result.code);
}

// Runs timed before version 5 say how: cold ones flushed L2 by writing alone, hot ones not at
// all, and neither had the events' own time subtracted.
TEST(Migrations, VersionFourRunsSayHowTheyWereTimed) {
  TempDir dir;
  const std::string path = dir.file("h.sqlite");
  {
    RunStore store(path);
    store.upsertDevice(testing::fakeDevice("GPU-aaaa", "NVIDIA H100 80GB HBM3"));
    RunResult cold = testing::fakeRun("memcpy", "f32", 1000);
    RunResult hot = cold;
    hot.mode = TimingMode::Hot;
    store.insertRun(cold);
    store.insertRun(hot);
    store.database().exec(
        std::string(kDropSinceVersion6) +
        "ALTER TABLE runs DROP COLUMN l2_flush; ALTER TABLE runs DROP COLUMN event_overhead; "
        "DROP TABLE baselines; PRAGMA user_version = 4");
  }
  RunStore store(path);
  const auto runs = store.query({});
  ASSERT_EQ(runs.size(), 2u);
  for (const auto& record : runs) {
    const RunResult& r = record.result;
    EXPECT_EQ(r.flush, r.mode == TimingMode::Hot ? L2Flush::None : L2Flush::Write);
    EXPECT_EQ(r.eventOverhead, 0);
  }
  RunResult fresh = testing::fakeRun("memcpy", "f32", 1000);
  fresh.eventOverhead = 1.7e-6;
  const auto run = store.run(store.insertRun(fresh));
  ASSERT_TRUE(run);
  EXPECT_EQ(run->result.flush, L2Flush::WriteRead);
  EXPECT_DOUBLE_EQ(run->result.eventOverhead, 1.7e-6);
}

// Runs stored before version 6 are found by their words and tags, and sort by their tags.
TEST(Migrations, VersionFiveRunsAreFoundByTextAndTags) {
  TempDir dir;
  const std::string path = dir.file("h.sqlite");
  {
    RunStore store(path);
    store.upsertDevice(testing::fakeDevice("GPU-aaaa", "NVIDIA H100 80GB HBM3"));
    store.insertRun(testing::fakeRun("memcpy", "f32", 1000));
    const auto tagged = store.insertRun(testing::fakeRun("vectorized", "f16", 2000));
    store.addTag(tagged, "workshop");
    store.addTag(tagged, "after");
    store.database().exec(std::string(kDropSinceVersion6) + "PRAGMA user_version = 5");
  }
  RunStore store(path);
  EXPECT_EQ(schemaVersion(store.database()), latestSchemaVersion());
  EXPECT_EQ(firstValue(store.database(), "SELECT tags FROM runs WHERE id = 2"), "after\nworkshop");
  HistoryFilter text;
  text.text = "vectorized";
  EXPECT_EQ(store.count(text), 1u);
  text.text = "worksh";
  EXPECT_EQ(store.count(text), 1u);
  store.removeTag(2, "workshop");
  EXPECT_EQ(store.count(text), 0u);
  EXPECT_EQ(firstValue(store.database(), "SELECT tags FROM runs WHERE id = 2"), "after");
}

TEST(Migrations, AHistoryIsMarkedOursInWalModeWithForeignKeys) {
  TempDir dir;
  RunStore store(dir.file("h.sqlite"));
  Database& db = store.database();
  EXPECT_EQ(firstValue(db, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(firstValue(db, "PRAGMA foreign_keys"), "1");
  EXPECT_EQ(firstValue(db, "PRAGMA application_id"), std::to_string(kApplicationId));
}

TEST(Migrations, NewerDatabaseIsRefusedAndLeftAlone) {
  TempDir dir;
  const std::string path = dir.file("h.sqlite");
  {
    Database db(path);
    db.exec("CREATE TABLE keep (x INTEGER); INSERT INTO keep VALUES (7);");
    db.exec("PRAGMA user_version = " + std::to_string(latestSchemaVersion() + 1));
    db.exec("PRAGMA application_id = " + std::to_string(kApplicationId));
  }
  try {
    RunStore store(path);
    FAIL() << "opened a newer database";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Database);
    EXPECT_NE(std::string(e.what()).find("newer"), std::string::npos);
  }
  Database db(path);
  EXPECT_EQ(schemaVersion(db), latestSchemaVersion() + 1);
  EXPECT_EQ(firstValue(db, "SELECT x FROM keep"), "7");
}

TEST(Migrations, AFileThatIsNoDatabaseIsAnErrorNotACrash) {
  TempDir dir;
  const std::string path = dir.file("h.sqlite");
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    std::fputs("this is not an SQLite database, but it is long enough to look like a header....",
               f);
    std::fclose(f);
  }
  try {
    RunStore store(path);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Database);
  }
}

}  // namespace
}  // namespace kwb
