#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/verdict.h"

namespace kwb {

class Database;

struct Baseline {
  std::int64_t runId = 0;
  bool sameSource = false;  // a kernel file's later runs match only with the same source
  std::int64_t markedAt = 0;
};

class RunStore;

// A run judged against the baseline of its configuration.
struct BaselineVerdict {
  std::int64_t baselineId = 0;
  Verdict verdict;
};
// A stored run (with its samples) against the baseline of its configuration, where it has one.
std::optional<BaselineVerdict> baselineVerdict(RunStore& store, std::int64_t runId,
                                               const RunResult& run);

// A later run and the baseline of its configuration.
struct BaselinePair {
  std::int64_t baselineId = 0;
  std::int64_t runId = 0;
};

// Runs marked as the baseline of their configuration: the same kernel (family and variant, for a
// kernel file also its file and, where the user picks, its source version), parameters, device
// and timing mode. A configuration has one baseline at a time; every run of it started later is
// compared against it.
class BaselineStore {
 public:
  explicit BaselineStore(Database& db) : db_(db) {}

  // Replaces the configuration's earlier baseline. Throws Error(Usage) for no such run or a run
  // without timing samples.
  void mark(std::int64_t runId, bool sameSource);
  bool clear(std::int64_t runId);  // false where the run was no baseline
  std::vector<Baseline> all();
  // The baseline of a run's configuration, started before it; none for a baseline itself.
  std::optional<Baseline> of(std::int64_t runId);
  // Each baseline with the newest timed run of its configuration started after it.
  std::vector<BaselinePair> newestRuns();

 private:
  Database& db_;
};

}  // namespace kwb
