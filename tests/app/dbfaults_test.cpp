// Damaged, foreign and newer files given to the history commands and to `kwb db merge`: each is
// refused with its own exit code and a sentence naming the user's file, and a file that must not
// change keeps every byte.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "app/cli/cliapp.h"
#include "app/cli/exitcodes.h"
#include "db/database.h"
#include "db/migrations.h"
#include "db/runstore.h"
#include "db/testdb.h"

namespace kwb {
namespace {

namespace fs = std::filesystem;

struct Outcome {
  int code;
  std::string out;
  std::string err;
};

Outcome cli(const std::vector<std::string>& args) {
  std::istringstream in;
  std::ostringstream out;
  std::ostringstream err;
  const int code = runCli(args, in, out, err);
  return {code, out.str(), err.str()};
}

std::string bytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

void write(const std::string& path, const std::string& content) {
  std::ofstream(path, std::ios::binary) << content;
}

// A history with `runs` runs, all in the main file.
void makeHistory(const std::string& path, int runs, std::int64_t firstStart = 1000) {
  RunStore store(path);
  store.upsertDevice(testing::fakeDevice());
  for (int i = 0; i < runs; ++i) store.insertRun(testing::fakeRun("memcpy", "f32", firstStart + i));
}

std::size_t runCount(const std::string& path) {
  RunStore store(path);
  return store.count({});
}

class DbFaults : public ::testing::Test {
 protected:
  std::string file(const std::string& name) const { return dir.file(name); }

  // The command is refused with `code`, names `path`, and leaves its bytes and no side files.
  void expectRefusedUnchanged(const std::string& path, const std::vector<std::string>& args,
                              int code, const std::string& says) {
    const std::string before = bytes(path);
    const Outcome o = cli(args);
    EXPECT_EQ(o.code, code) << o.err;
    EXPECT_NE(o.err.find(says), std::string::npos) << o.err;
    EXPECT_NE(o.err.find(path), std::string::npos) << "names the user's file: " << o.err;
    EXPECT_EQ(o.err.find("kwb-merge-"), std::string::npos) << "never the copy: " << o.err;
    EXPECT_EQ(bytes(path), before) << path << " changed";
    for (const char* side : {"-wal", "-shm"})
      EXPECT_FALSE(fs::exists(path + side)) << "a " << side << " file was left beside " << path;
  }

  testing::TempDir dir;
};

TEST_F(DbFaults, GarbageIsRefusedUntouched) {
  const std::string path = file("garbage.sqlite");
  write(path, std::string(5000, 'x'));
  expectRefusedUnchanged(path, {"--db", path, "history"}, kExitDatabase, "not a SQLite database");
}

TEST_F(DbFaults, ATruncatedHistoryIsAnErrorAndStaysAsItWas) {
  const std::string path = file("cut.sqlite");
  makeHistory(path, 60);
  fs::resize_file(path, fs::file_size(path) / 2);
  expectRefusedUnchanged(path, {"--db", path, "history", "--limit", "0"}, kExitDatabase,
                         "malformed");
}

// A writer that holds the history longer than the busy timeout: the merge gives up, untouched.
TEST_F(DbFaults, ALockedHistoryIsAnErrorAndStaysAsItWas) {
  const std::string target = file("target.sqlite"), source = file("source.sqlite");
  makeHistory(target, 1);
  makeHistory(source, 2, 9000);
  RunStore holder(target);
  holder.database().exec("BEGIN EXCLUSIVE");
  const std::string before = bytes(target);
  const Outcome o = cli({"--db", target, "db", "merge", source});
  EXPECT_EQ(o.code, kExitDatabase) << o.err;
  EXPECT_NE(o.err.find("locked"), std::string::npos) << o.err;
  EXPECT_EQ(bytes(target), before);
  holder.database().exec("ROLLBACK");
}

// File permissions bind everyone but root, who writes through them.
TEST_F(DbFaults, AReadOnlyHistoryOrFolderIsReadOrRefusedButNeverChanged) {
  if (::geteuid() == 0) GTEST_SKIP() << "running as root, whom file permissions do not stop";
  const std::string folder = file("locked-folder"), path = folder + "/h.sqlite";
  fs::create_directory(folder);
  makeHistory(path, 2);
  const std::string source = file("source.sqlite");
  makeHistory(source, 2, 9000);
  fs::permissions(path, fs::perms::owner_read);
  const std::string before = bytes(path);
  EXPECT_EQ(cli({"--db", path, "history"}).code, kExitOk);  // reading needs no write
  const Outcome merge = cli({"--db", path, "db", "merge", source});
  EXPECT_EQ(merge.code, kExitDatabase) << merge.err;
  EXPECT_NE(merge.err.find("readonly"), std::string::npos) << merge.err;
  EXPECT_EQ(bytes(path), before);
  fs::permissions(folder, fs::perms::owner_read | fs::perms::owner_exec);
  EXPECT_EQ(cli({"--db", path, "history"}).code, kExitOk);
  EXPECT_EQ(cli({"--db", path, "db", "merge", source}).code, kExitDatabase);
  EXPECT_EQ(bytes(path), before);
  const std::string wal = path + "-wal";
  EXPECT_EQ(fs::exists(wal) ? fs::file_size(wal) : 0u, 0u) << "nothing was written beside it";
  fs::permissions(folder, fs::perms::owner_all);
}

TEST_F(DbFaults, AnotherApplicationsDatabaseIsRefusedUntouched) {
  const std::string plain = file("other.sqlite");
  {
    Database db(plain);
    db.exec("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('x');");
  }
  expectRefusedUnchanged(plain, {"--db", plain, "history"}, kExitDatabase, "another application's");
  const std::string marked = file("marked.sqlite");
  {
    Database db(marked);
    db.exec("PRAGMA application_id = 1234; CREATE TABLE runs (x INTEGER);");
  }
  expectRefusedUnchanged(marked, {"--db", marked, "export", "--format", "csv"}, kExitDatabase,
                         "another application's");
}

TEST_F(DbFaults, ANewerHistoryIsRefusedUntouchedInEitherJournalMode) {
  for (const char* mode : {"DELETE", "WAL"}) {
    const std::string path = file(std::string("newer-") + mode + ".sqlite");
    makeHistory(path, 1);
    {
      Database db(path);
      db.exec("PRAGMA user_version = " + std::to_string(latestSchemaVersion() + 1));
      db.exec(std::string("PRAGMA journal_mode = ") + mode);
    }
    expectRefusedUnchanged(path, {"--db", path, "history"}, kExitDatabase, "newer");
  }
}

TEST_F(DbFaults, AFreshOrEmptyFileBecomesAHistory) {
  const std::string empty = file("empty.sqlite");
  write(empty, "");
  EXPECT_EQ(cli({"--db", empty, "history"}).code, kExitOk);
  EXPECT_EQ(runCount(empty), 0u);
}

TEST_F(DbFaults, MergeReadsRunsStillInTheSourcesWriteAheadLog) {
  const std::string source = file("source.sqlite");
  RunStore open(source);  // stays open: its last runs are in the WAL, not the main file
  open.upsertDevice(testing::fakeDevice());
  for (int i = 0; i < 2; ++i) open.insertRun(testing::fakeRun("memcpy", "f32", 1000 + i));
  open.database().exec("PRAGMA wal_checkpoint(TRUNCATE)");
  for (int i = 2; i < 7; ++i) open.insertRun(testing::fakeRun("memcpy", "f32", 1000 + i));
  ASSERT_GT(fs::file_size(source + "-wal"), 0u);
  const std::string target = file("target.sqlite");
  const Outcome o = cli({"--db", target, "db", "merge", source});
  ASSERT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("7 runs added"), std::string::npos) << o.out;
  EXPECT_EQ(runCount(target), 7u);
}

TEST_F(DbFaults, AMergeIsAllOrNothing) {
  const std::string good = file("good.sqlite"), bad = file("bad.sqlite");
  makeHistory(good, 3);
  write(bad, std::string(4096, '\x01'));
  const std::string target = file("target.sqlite");
  makeHistory(target, 1, 5000);
  const Outcome o = cli({"--db", target, "db", "merge", good, bad});
  EXPECT_EQ(o.code, kExitDatabase) << o.err;
  EXPECT_NE(o.err.find(bad), std::string::npos) << o.err;
  EXPECT_EQ(runCount(target), 1u) << "the good source's runs were added before the failure";
}

TEST_F(DbFaults, MergeRefusesWhatIsNoSource) {
  const std::string target = file("target.sqlite");
  makeHistory(target, 1);
  const std::string empty = file("empty.sqlite");
  write(empty, "");
  expectRefusedUnchanged(empty, {"--db", target, "db", "merge", empty}, kExitDatabase, "empty");

  const std::string other = file("other.sqlite");
  {
    Database db(other);
    db.exec("CREATE TABLE contacts (name TEXT);");
  }
  expectRefusedUnchanged(other, {"--db", target, "db", "merge", other}, kExitDatabase,
                         "another application's");

  fs::create_symlink(target, file("link.sqlite"));
  const std::string dotted = (fs::path(target).parent_path() / "." / "target.sqlite").string();
  for (const std::string& self : {target, file("link.sqlite"), dotted}) {
    const Outcome o = cli({"--db", target, "db", "merge", self});
    EXPECT_EQ(o.code, kExitBadInput) << self << ": " << o.err;
    EXPECT_NE(o.err.find("the history being merged into"), std::string::npos) << o.err;
  }
  const std::string source = file("source.sqlite");
  makeHistory(source, 2, 9000);
  const Outcome twice = cli({"--db", target, "db", "merge", source, source});
  EXPECT_EQ(twice.code, kExitBadInput) << twice.err;
  EXPECT_NE(twice.err.find("the same file"), std::string::npos) << twice.err;
  EXPECT_EQ(runCount(target), 1u);
}

}  // namespace
}  // namespace kwb
