#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "core/runresult.h"

namespace kwb {

// The hardware metrics of finished runs, one row per metric and one column per run headed by
// `labels`; each kernel's own values follow the run's where a run launched more than one.
void printMetricsTable(std::ostream& out, const std::vector<const RunResult*>& runs,
                       const std::vector<std::string>& labels);

// "SM 1980 MHz (min 1965), memory 2619 MHz, 41 C, 297 W, 52.1 J; 3 of 120 samples throttled"
// from a run's GPU state; empty when it has none.
std::string gpuStateLine(const RunResult& run);

// How far a run's figure can be trusted (core/measurementquality.h): a "quality:" line, then a
// "doubt:" line for each doubt.
void printQuality(std::ostream& out, const RunResult& run);

}  // namespace kwb
