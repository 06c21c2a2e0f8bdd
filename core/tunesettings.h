#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/shard.h"

namespace kwb {

// What to tune and how to search, as the user gives it (`kwb tune`'s options, a worker
// request's "tune"): checked where the tuning is made.
struct TuneSettings {
  std::vector<std::string> axes;  // "block_size=32:1024:*2", one per tuned parameter
  std::vector<std::string> restrictions;
  std::string strategy = "annealing";
  std::string objective = "time";
  std::string searchBudget;  // "200" evaluations or "90s", "3m"; empty: no limit
  std::size_t patience = 0;
  std::size_t confirm = 5;  // leaders measured again
  std::uint64_t searchSeed = 1;
  bool rerun = false;  // measure points the history already has
  Shard shard;         // the share of the space this tuning searches
};

}  // namespace kwb
