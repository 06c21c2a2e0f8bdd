#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>

#include "app/cli/devicepool.h"
#include "app/cli/tunejob.h"

namespace kwb {

// A tuning whose points the pool's workers measure (`kwb tune --devices/--host`, and the relay's
// tunings over several GPUs): as many at a time as the pool has GPUs, `settings` for the search's
// points and longer for the leaders measured again. Each run is stored under the tuning's sweep
// with its tags where store is set, then given to `ran`; a worker's end and a point that did not
// run are said through `said`.
TuneReport tuneOnPool(
    GpuTuning& tuning, DevicePool& pool, std::size_t width, const DeviceInfo& first,
    const protocol::Kernel& what, const MeasureSettings& settings, RunStore* store,
    const std::atomic<bool>* cancel, const Tuner::Progress& progress,
    const std::function<void(const RunResult& run, std::optional<std::int64_t> runId)>& ran,
    const std::function<void(const std::string& sentence)>& said);

}  // namespace kwb
