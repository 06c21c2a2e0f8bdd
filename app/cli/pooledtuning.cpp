#include "app/cli/pooledtuning.h"

#include "db/runstore.h"

namespace kwb {

TuneReport tuneOnPool(
    GpuTuning& tuning, DevicePool& pool, std::size_t width, const DeviceInfo& first,
    const protocol::Kernel& what, const MeasureSettings& settings, RunStore* store,
    const std::atomic<bool>* cancel, const Tuner::Progress& progress,
    const std::function<void(const RunResult& run, std::optional<std::int64_t> runId)>& ran,
    const std::function<void(const std::string& sentence)>& said) {
  // What goes over the protocol: the search's settings, and the longer confirming runs'.
  MeasureSettings confirm = settings;
  const TimingOptions longer = tuning.confirmOptions().timing;
  confirm.budget = longer.budgetSeconds;
  confirm.minSamples = longer.minSamples;
  confirm.maxSamples = longer.maxSamples;
  return tuning.run(
      first, width, store, cancel, progress,
      [&](const std::vector<ParamSet>& points, bool confirming,
          std::optional<std::int64_t> sweepId) {
        std::vector<TuneMeasurement> out(points.size());
        std::vector<RawParams> raw;
        for (const auto& point : points)
          raw.emplace_back(point.values().begin(), point.values().end());
        const auto& tags = confirming ? tuning.confirmOptions().tags : tuning.jobOptions().tags;
        PoolEvents events;
        events.result = [&](std::size_t index, int, const RunResult& run) {
          std::optional<std::int64_t> id;
          if (store) id = store->insertRun(run, sweepId, tags);
          out[index] = tuneMeasurementOf(run, id, false);
          if (ran) ran(run, id);
        };
        events.failed = [&](std::size_t index, int device, const std::string& sentence) {
          out[index].outcome = TuneMeasurement::Outcome::Failed;
          out[index].error = "GPU " + std::to_string(device) + ": " + sentence;
        };
        events.workerEnded = [&](int, const std::string& sentence) {
          if (said) said(sentence + "; the other workers go on");
        };
        pool.run(what, raw, confirming ? confirm : settings, cancel, events);
        return out;
      });
}

}  // namespace kwb
