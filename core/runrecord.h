#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/runresult.h"

namespace kwb {

// A run as the history keeps it: the result and where it is filed. A run not stored (yet) has
// id 0 and no sweep.
struct RunRecord {
  std::int64_t id = 0;
  std::optional<std::int64_t> sweepId;
  std::string deviceName;
  RunResult result;  // samples and metrics only where the whole run was read
  std::vector<std::string> tags;
};

}  // namespace kwb
