#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/runrecord.h"
#include "core/sweep.h"
#include "core/tunespace.h"

namespace kwb {

class RunStore;

// The tag of a finalist's confirmation runs, filed under the tuning's sweep beside its search.
inline constexpr char kTuneConfirmTag[] = "tune:confirm";

// What makes a stored run a measurement of a point of a tuning: the same kernel on the same
// device, timed the same way by the same binary, and for a kernel file the same source.
struct TuneIdentity {
  std::string family;
  std::string variant;
  std::string deviceUuid;
  std::string appVersion;
  std::string sourceHash;  // empty for built-in variants
  TimingMode mode = TimingMode::Cold;
};

// The history as the tuning's cache: for each point of the space measured before (status ok),
// its newest run.
std::map<std::size_t, std::int64_t> measuredPoints(RunStore& store, const TuneSpace& space,
                                                   const TuneIdentity& identity);

// A stored sweep or tuning, to replay a strategy against: its tuned parameters with the values
// its runs took, and its runs by their tuned values (TuneSpace::describe's text; each point's
// newest run of the search, a confirmation run only where the search has none). Error(Usage)
// for no such sweep, or one without runs.
struct RecordedSweep {
  std::int64_t id = 0;
  std::string family;
  std::string variant;
  std::vector<SweepAxis> axes;
  std::map<std::string, RunRecord> runs;  // without samples and metrics
};
RecordedSweep recordedSweep(RunStore& store, std::int64_t sweepId);

// The "axes" a tuning stores in its sweep row: its parameters with their values, restrictions,
// strategy and objective, so that it can be replayed or resumed.
nlohmann::json tuneSweepAxes(const TuneSpace& space, const std::string& strategy,
                             const std::string& objective);

}  // namespace kwb
