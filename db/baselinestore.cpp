#include "db/baselinestore.h"

#include <string>
#include <string_view>

#include "core/error.h"
#include "core/timeformat.h"
#include "db/database.h"
#include "db/runstore.h"

namespace kwb {
namespace {

// Run r has the settings of baseline run b (marked in bl), its source version aside.
constexpr std::string_view kSameSettings =
    "r.family = b.family AND r.variant = b.variant AND r.problem = b.problem AND "
    "r.launch = b.launch AND r.device_id IS b.device_id AND r.mode = b.mode AND "
    "r.kernel_file = b.kernel_file";

// Run r is of baseline b's configuration.
std::string sameConfiguration() {
  return std::string(kSameSettings) + " AND (bl.same_source = 0 OR r.source_hash = b.source_hash)";
}

Baseline readBaseline(const Statement& s) {
  return {s.int64("run_id"), s.int64("same_source") != 0, s.int64("marked_at")};
}

}  // namespace

std::optional<BaselineVerdict> baselineVerdict(RunStore& store, std::int64_t runId,
                                               const RunResult& run) {
  const auto baseline = BaselineStore(store.database()).of(runId);
  if (!baseline || run.samples.size() < 2) return std::nullopt;
  const auto base = store.run(baseline->runId);
  if (!base || base->result.samples.size() < 2) return std::nullopt;
  return BaselineVerdict{baseline->runId, compareRuns(base->result, run)};
}

void BaselineStore::mark(std::int64_t runId, bool sameSource) {
  Transaction transaction(db_);
  auto check = db_.prepare("SELECT status, sample_count FROM runs WHERE id = ?");
  check.bind(1, runId);
  if (!check.step()) throw Error(ErrorKind::Usage, "no run " + std::to_string(runId));
  if (check.text("status") != "ok" || check.int64("sample_count") < 2)
    throw Error(ErrorKind::Usage,
                "run " + std::to_string(runId) + " has no timing samples to compare against");
  // The configuration's earlier baselines, as either the old or the new marking sees it.
  auto replaced = db_.prepare(
      "DELETE FROM baselines WHERE run_id IN (SELECT bl.run_id FROM baselines bl JOIN runs b ON "
      "b.id = bl.run_id JOIN runs r ON r.id = :run WHERE " +
      std::string(kSameSettings) +
      " AND (bl.same_source = 0 OR :same = 0 OR r.source_hash = b.source_hash))");
  replaced.bind(":run", runId).bind(":same", std::int64_t{sameSource});
  replaced.run();
  auto insert =
      db_.prepare("INSERT INTO baselines (run_id, same_source, marked_at) VALUES (?, ?, ?)");
  insert.bind(1, runId).bind(2, std::int64_t{sameSource}).bind(3, nowUnixMs());
  insert.run();
  transaction.commit();
}

bool BaselineStore::clear(std::int64_t runId) {
  auto s = db_.prepare("DELETE FROM baselines WHERE run_id = ?");
  s.bind(1, runId);
  s.run();
  return db_.changes() > 0;
}

std::vector<Baseline> BaselineStore::all() {
  std::vector<Baseline> out;
  auto s = db_.prepare("SELECT run_id, same_source, marked_at FROM baselines ORDER BY run_id");
  while (s.step()) out.push_back(readBaseline(s));
  return out;
}

std::optional<Baseline> BaselineStore::of(std::int64_t runId) {
  auto s = db_.prepare(std::string("SELECT bl.run_id AS run_id, bl.same_source AS same_source, "
                                   "bl.marked_at AS marked_at FROM baselines bl "
                                   "JOIN runs b ON b.id = bl.run_id JOIN runs r ON r.id = ? "
                                   "WHERE r.id != b.id AND r.started_at > b.started_at AND ") +
                       sameConfiguration() + " ORDER BY b.started_at DESC LIMIT 1");
  s.bind(1, runId);
  if (!s.step()) return std::nullopt;
  return readBaseline(s);
}

std::vector<BaselinePair> BaselineStore::newestRuns() {
  std::vector<BaselinePair> out;
  auto s = db_.prepare(
      "SELECT bl.run_id AS baseline_id, (SELECT r.id FROM runs r WHERE " + sameConfiguration() +
      " AND r.started_at > b.started_at AND r.status = 'ok' AND r.sample_count >= 2 "
      "ORDER BY r.started_at DESC, r.id DESC LIMIT 1) AS run_id "
      "FROM baselines bl JOIN runs b ON b.id = bl.run_id ORDER BY bl.run_id");
  while (s.step())
    if (!s.isNull("run_id")) out.push_back({s.int64("baseline_id"), s.int64("run_id")});
  return out;
}

}  // namespace kwb
