#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "core/runrecord.h"

namespace kwb {

// Runs as Kernel Tuner's T4 results (the Open Autotuning results schema, version 1.0.0): one
// result per run with its configuration (the run's parameters), its per-sample runtimes and the
// median time as the "time" objective, in milliseconds as Kernel Tuner writes them; a run that
// failed or whose output was wrong is marked invalid (runtime, correctness).
nlohmann::ordered_json toT4Json(const std::vector<RunRecord>& records);

}  // namespace kwb
