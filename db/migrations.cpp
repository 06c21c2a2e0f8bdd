#include "db/migrations.h"

#include <array>
#include <string>
#include <string_view>

#include "core/error.h"
#include "db/database.h"
#include "db/runtext.h"

namespace kwb {
namespace {

struct Migration {
  std::string_view sql;
  void (*then)(Database&) = nullptr;  // what SQL alone cannot write, in the same transaction
};

// Each entry moves the schema up by one version. Never edit one that has shipped: add another.
constexpr std::array<Migration, 7> kMigrations{
    // v1: devices, copy ceilings, sweeps, runs with their samples, metrics, tags and notes.
    Migration{R"sql(
CREATE TABLE devices (
  id INTEGER PRIMARY KEY,
  uuid TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  compute_capability TEXT NOT NULL,
  sm_count INTEGER NOT NULL,
  max_threads_per_sm INTEGER NOT NULL,
  max_threads_per_block INTEGER NOT NULL,
  l2_bytes INTEGER NOT NULL,
  mem_bus_bits INTEGER NOT NULL,
  mem_clock_khz INTEGER NOT NULL,
  total_mem_bytes INTEGER NOT NULL,
  peak_bandwidth REAL NOT NULL,
  driver_version INTEGER NOT NULL,
  runtime_version INTEGER NOT NULL,
  first_seen INTEGER NOT NULL
);
CREATE TABLE copy_ceilings (
  id INTEGER PRIMARY KEY,
  device_id INTEGER NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  bandwidth REAL NOT NULL,
  bytes INTEGER NOT NULL,
  method TEXT NOT NULL,
  measured_at INTEGER NOT NULL
);
CREATE TABLE sweeps (
  id INTEGER PRIMARY KEY,
  family TEXT NOT NULL,
  variant TEXT NOT NULL,
  base TEXT NOT NULL,
  axes TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  device_id INTEGER REFERENCES devices(id),
  sweep_id INTEGER REFERENCES sweeps(id) ON DELETE SET NULL,
  family TEXT NOT NULL,
  variant TEXT NOT NULL,
  dtype TEXT NOT NULL DEFAULT '',
  problem TEXT NOT NULL,
  launch TEXT NOT NULL,
  derived TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('cold', 'hot')),
  status TEXT NOT NULL CHECK (status IN ('ok', 'failed', 'verification_failed', 'cancelled')),
  error TEXT NOT NULL DEFAULT '',
  verified INTEGER NOT NULL,
  verify_passed INTEGER NOT NULL,
  verify_rel_error REAL,
  verify_tolerance REAL,
  sample_count INTEGER NOT NULL,
  time_min REAL, time_median REAL, time_mean REAL, time_max REAL, time_stddev REAL,
  converged INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  bandwidth REAL,
  ceiling_bandwidth REAL,
  peak_bandwidth REAL,
  app_version TEXT NOT NULL,
  started_at INTEGER NOT NULL
);
CREATE INDEX runs_by_kernel ON runs(family, variant, started_at);
CREATE INDEX runs_by_time ON runs(started_at);
CREATE INDEX runs_by_device ON runs(device_id, started_at);
CREATE INDEX runs_by_sweep ON runs(sweep_id);
CREATE TABLE samples (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  seconds REAL NOT NULL,
  PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
CREATE TABLE metrics (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  kernel TEXT NOT NULL DEFAULT '',
  value REAL NOT NULL,
  unit TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (run_id, name, kernel)
) WITHOUT ROWID;
CREATE TABLE tags (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  tag TEXT NOT NULL,
  PRIMARY KEY (run_id, tag)
) WITHOUT ROWID;
CREATE INDEX tags_by_tag ON tags(tag);
CREATE TABLE notes (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  text TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX notes_by_run ON notes(run_id);
)sql"},
    // v2: why part of a run was skipped (counters unreadable, say), and which timing samples
    // were taken while the GPU held its clocks down.
    Migration{R"sql(
ALTER TABLE runs ADD COLUMN notice TEXT NOT NULL DEFAULT '';
ALTER TABLE samples ADD COLUMN throttled INTEGER NOT NULL DEFAULT 0;
)sql"},
    // v3: kernels' machine code as cuobjdump printed it, per binary version and architecture,
    // so that showing it again needs neither the toolkit nor the wait.
    Migration{R"sql(
CREATE TABLE sass_listings (
  binary TEXT NOT NULL,
  arch TEXT NOT NULL,
  symbol TEXT NOT NULL,
  listing TEXT NOT NULL,
  stored_at INTEGER NOT NULL,
  PRIMARY KEY (binary, arch, symbol)
) WITHOUT ROWID;
)sql"},
    // v4: the code of users' kernels, each version once by its SHA-256, and the file and version
    // each run ran.
    Migration{R"sql(
CREATE TABLE kernel_sources (
  hash TEXT PRIMARY KEY,
  source TEXT NOT NULL,
  spec TEXT NOT NULL
) WITHOUT ROWID;
ALTER TABLE runs ADD COLUMN kernel_file TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN source_hash TEXT NOT NULL DEFAULT '';
)sql"},
    // v5: how each run was timed (runs before it flushed L2 by writing alone and kept the event
    // pair's own time in their samples), and the runs marked as their configuration's baseline.
    Migration{R"sql(
ALTER TABLE runs ADD COLUMN l2_flush TEXT NOT NULL DEFAULT 'write'
  CHECK (l2_flush IN ('none', 'write', 'write_read'));
UPDATE runs SET l2_flush = 'none' WHERE mode = 'hot';
ALTER TABLE runs ADD COLUMN event_overhead REAL NOT NULL DEFAULT 0;
CREATE TABLE baselines (
  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  same_source INTEGER NOT NULL,
  marked_at INTEGER NOT NULL
);
)sql"},
    // v6: what the history page needs at a million runs: an index for each column it sorts by,
    // the run's tags in its row (kept by triggers) and a trigram index of the words its free-text
    // filter finds a run by (written with each run: runtext.h).
    Migration{R"sql(
ALTER TABLE runs ADD COLUMN tags TEXT NOT NULL DEFAULT '';
UPDATE runs SET tags = (SELECT group_concat(tag, char(10)) FROM
  (SELECT tag FROM tags t WHERE t.run_id = runs.id ORDER BY tag))
  WHERE id IN (SELECT run_id FROM tags);
CREATE TRIGGER tags_added AFTER INSERT ON tags BEGIN
  UPDATE runs SET tags = (SELECT group_concat(tag, char(10)) FROM
    (SELECT tag FROM tags t WHERE t.run_id = new.run_id ORDER BY tag)) WHERE id = new.run_id;
END;
CREATE TRIGGER tags_removed AFTER DELETE ON tags BEGIN
  UPDATE runs SET tags = COALESCE((SELECT group_concat(tag, char(10)) FROM
    (SELECT tag FROM tags t WHERE t.run_id = old.run_id ORDER BY tag)), '') WHERE id = old.run_id;
END;
CREATE VIRTUAL TABLE run_text USING fts5(text, tokenize = 'trigram', detail = 'none');
CREATE TRIGGER run_text_removed AFTER DELETE ON runs BEGIN
  DELETE FROM run_text WHERE rowid = old.id;
END;
CREATE INDEX runs_by_dtype ON runs(dtype);
CREATE INDEX runs_by_problem ON runs(problem);
CREATE INDEX runs_by_launch ON runs(launch);
CREATE INDEX runs_by_status ON runs(status);
CREATE INDEX runs_by_median ON runs(time_median);
CREATE INDEX runs_by_bandwidth ON runs(bandwidth);
CREATE INDEX runs_by_ceiling ON runs(bandwidth / ceiling_bandwidth);
CREATE INDEX runs_by_tags ON runs(tags);
)sql",
              indexStoredRunTexts},
    // v7: the ceilings measured on each device (core/ceilings.h), kept as the copy ceiling is,
    // and the floating-point operations each run declares (NULL where its variant does not).
    Migration{R"sql(
ALTER TABLE runs ADD COLUMN flops REAL;
CREATE TABLE device_ceilings (
  device_id INTEGER NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  value REAL NOT NULL,
  sm_clock_mhz REAL NOT NULL,
  measured_at INTEGER NOT NULL,
  PRIMARY KEY (device_id, name, measured_at)
) WITHOUT ROWID;
)sql"},
};

}  // namespace

int latestSchemaVersion() {
  return static_cast<int>(kMigrations.size());
}

namespace {

std::int64_t pragma(Database& db, const char* name) {
  auto statement = db.prepare(std::string("PRAGMA ") + name);
  statement.step();
  return statement.int64(0);
}

bool hasTable(Database& db, const char* name) {
  auto s = db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?");
  s.bind(1, std::string_view(name));
  return s.step() && s.int64(0) > 0;
}

}  // namespace

int schemaVersion(Database& db) {
  return static_cast<int>(pragma(db, "user_version"));
}

void checkHistoryFile(Database& db) {
  std::int64_t application = 0;
  int version = 0;
  std::int64_t tables = 0;
  try {
    application = pragma(db, "application_id");
    version = schemaVersion(db);
    auto s = db.prepare("SELECT count(*) FROM sqlite_master");
    s.step();
    tables = s.int64(0);
  } catch (const Error& e) {
    throw Error(ErrorKind::Database, db.path() + " is damaged or not a SQLite database (" +
                                         e.what() + "); nothing in it was changed");
  }
  // Histories written before the header said whose they are have our tables and no id.
  const bool ours = application == kApplicationId || (application == 0 && hasTable(db, "runs"));
  const bool fresh = application == 0 && version == 0 && tables == 0;
  if (!ours && !fresh)
    throw Error(ErrorKind::Database,
                db.path() +
                    " is another application's SQLite database, not a Kernel Workbench "
                    "history; nothing in it was changed");
  if (version > latestSchemaVersion())
    throw Error(ErrorKind::Database, "database " + db.path() + " has schema version " +
                                         std::to_string(version) +
                                         ", newer than this build understands (" +
                                         std::to_string(latestSchemaVersion()) +
                                         "); use a newer kwb (nothing in it was changed)");
}

void migrate(Database& db) {
  for (int version = schemaVersion(db); version < latestSchemaVersion(); ++version) {
    Transaction transaction(db);
    const Migration& step = kMigrations[static_cast<std::size_t>(version)];
    db.exec(step.sql);
    if (step.then) step.then(db);
    db.exec("PRAGMA user_version = " + std::to_string(version + 1));
    transaction.commit();
  }
  if (pragma(db, "application_id") != kApplicationId)
    db.exec("PRAGMA application_id = " + std::to_string(kApplicationId));
}

}  // namespace kwb
