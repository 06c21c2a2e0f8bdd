#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include "app/cli/jobexecutor.h"
#include "core/tuneexport.h"
#include "core/tuner.h"
#include "core/tunesettings.h"
#include "core/validation.h"

namespace kwb {

class RunStore;
class Variant;
struct KernelFile;

// A tuning's strategy, objective and limits read from its settings: Error(Param) naming the
// strategy or objective, Error(Usage) for an unreadable budget.
struct TunePlan {
  TuneStrategyKind strategy = TuneStrategyKind::Annealing;
  TuneObjective objective = TuneObjective::Time;
  TuneLimits limits;
};
TunePlan planTuning(const TuneSettings& settings);

// The report's kernel file, its defines and its templated kernels, for the header export.
void describeKernelFile(TuneReport& report, const KernelFile& file);

// Searches with the plan's strategy, `width` points at a time, and measures the leaders again
// (remeasure; `confirm` of them, or where 0 the best alone, judged on the samples it has). A stop
// (cancel, or Error(Cancelled) from a measurement) keeps what was done. For energy objectives a
// measurement without power readings is refused with Error(Usage).
void searchAndConfirm(TuneReport& report, const TunePlan& plan, std::size_t confirm,
                      const Tuner::EvaluateBatch& evaluate, std::size_t width,
                      const std::function<TuneMeasurement(std::size_t)>& remeasure,
                      const std::atomic<bool>* cancel, const Tuner::Progress& progress);

// A tuning on this machine's GPU of a built-in variant or a kernel file, as `kwb tune` and the
// worker run it: points the history has (same device, binary, timing and source) are not run
// again unless settings.rerun; fresh runs are stored under a sweep of their own, tagged "tune",
// and reported through events.result.
class GpuTuning {
 public:
  // Reads the space; needs no device. Error(Usage/Param) as the CLI reports them.
  GpuTuning(std::shared_ptr<const Variant> kernel, const RawParams& base,
            const TuneSettings& settings, const JobOptions& job);
  const TuneSpace& space() const { return *space_; }
  // How many evaluations the search will make at most.
  std::size_t evaluationsAtMost() const;

  // store may be null: nothing is looked up or kept. A CUDA error escapes (the caller ends its
  // process where the kernel hung).
  TuneReport run(JobExecutor& executor, RunStore* store, const std::atomic<bool>* cancel,
                 const Tuner::Progress& progress, const JobEvents& events);

  // Measures points at once (one per GPU), as the search's points (`confirming` false) or as a
  // leader measured again (longer, with more samples: confirmOptions), filed under the sweep; a
  // measurement each, in their order.
  using MeasurePoints = std::function<std::vector<TuneMeasurement>(
      const std::vector<ParamSet>& points, bool confirming, std::optional<std::int64_t> sweepId)>;
  // The same search with the points measured elsewhere: `width` at a time, on GPUs like
  // `device` (whose runs the history is searched for); store may be null.
  TuneReport run(const DeviceInfo& device, std::size_t width, RunStore* store,
                 const std::atomic<bool>* cancel, const Tuner::Progress& progress,
                 const MeasurePoints& measure);
  // The options of a search's point and of a leader's confirming run.
  const JobOptions& jobOptions() const { return job_; }
  JobOptions confirmOptions() const;

 private:
  std::shared_ptr<const Variant> kernel_;
  RawParams base_;
  TuneSettings settings_;
  TunePlan plan_;
  JobOptions job_;
  std::unique_ptr<TuneSpace> space_;
};

}  // namespace kwb
