#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/tuner.h"

namespace kwb {

// A finished tuning as it is printed, saved and exported.
struct TuneReport {
  std::string family;
  std::string variant;
  std::string kernelFile;  // a user's kernel file; empty for a built-in variant
  // A kernel file's parameters that are compiled in as defines, and its templated kernels: each
  // one's name and template arguments (parameter names or numbers), as its spec gives them.
  std::vector<std::string> defines;
  std::vector<std::pair<std::string, std::vector<std::string>>> templates;
  std::string device;
  TuneStrategyKind strategy = TuneStrategyKind::Exhaustive;
  TuneObjective objective = TuneObjective::Time;
  std::uint64_t seed = 1;
  std::optional<std::int64_t> sweepId;  // where the runs are filed, or the sweep replayed
  bool replayed = false;
  const TuneSpace* space = nullptr;
  TuneOutcome outcome;
  std::vector<TuneFinalist> finalists;  // best first
};

nlohmann::json tuneReportJson(const TuneReport& report);

// The newest evaluation as the report lists each one (tuned values, median, score, the best
// score so far, run id, from the history or not), for live views.
nlohmann::json tuneEvaluationJson(const TuneSpace& space, const TuneOutcome& sofar);

// "block_size=256 waves=4: 12.3 us | best 11.9 us block_size=512 waves=2": the newest
// evaluation and the best so far, as progress lines say them.
std::string tuneProgressText(const TuneSpace& space, const TuneOutcome& sofar);

// A C++ header of the best configuration's values as constants a program can include; for a
// kernel file also the defines and template arguments to compile it with. From the report's
// JSON, so that the window, which holds only that, writes the same. Error(Usage) where no
// configuration ran.
std::string tuneHeader(const nlohmann::json& report);

}  // namespace kwb
