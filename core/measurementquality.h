#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/runresult.h"

namespace kwb {

// How far a run's figure can be trusted, from what the run recorded: its samples and their
// spread, whether it converged, throttled samples, the SM clock against its maximum, event
// against traced time, and how it was timed; with one sentence for each thing that makes the
// figure doubtful.
struct MeasurementQuality {
  std::size_t samples = 0;
  double spread = 0;             // relative standard deviation
  bool converged = false;        // the spread reached its target before the budget or limit
  double medianUncertainty = 0;  // half the median's 95 % interval, over the median
  std::size_t throttled = 0;
  std::optional<double> smClock;     // MHz, median over the run's readings
  std::optional<double> smClockMax;  // MHz, the device's maximum
  std::optional<double> eventOverTraced;
  bool backToBack = true;
  std::vector<std::string> doubts;
};

MeasurementQuality assessQuality(const RunResult& run);

// The quality as label and text rows ("samples", "40, spread 0.31 %, converged"), for the CLI and
// the window's panel alike.
std::vector<std::pair<std::string, std::string>> qualityRows(const RunResult& run,
                                                             const MeasurementQuality& quality);

}  // namespace kwb
