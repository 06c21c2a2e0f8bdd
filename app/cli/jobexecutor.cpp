#include "app/cli/jobexecutor.h"

#include <chrono>

#include "core/error.h"
#include "db/runstore.h"
#include "kernels/variant.h"
#include "measure/runner.h"

namespace kwb {

JobExecutor::JobExecutor(RunStore* store, int deviceOrdinal)
    : store_(store), deviceOrdinal_(deviceOrdinal) {}

JobExecutor::~JobExecutor() = default;

Runner& JobExecutor::runner() {
  if (!runner_) {
    runner_ = std::make_unique<Runner>(deviceOrdinal_);
    if (store_) store_->upsertDevice(runner_->device());
  }
  return *runner_;
}

const DeviceInfo& JobExecutor::device() {
  return runner().device();
}

CopyCeiling JobExecutor::ceiling(const std::atomic<bool>* cancel, const JobEvents& events) {
  if (ceiling_) return *ceiling_;
  Runner& r = runner();
  if (store_) ceiling_ = store_->latestCeiling(r.device().uuid);
  if (!ceiling_) {
    if (events.progress)
      events.progress(0, 0, 0,
                      "measuring the copy ceiling of " + r.device().name +
                          " (once; it is kept with the history)");
    ceiling_ = r.measureCopyCeiling(cancel);
    if (store_) store_->saveCeiling(r.device().uuid, *ceiling_);
  }
  return *ceiling_;
}

std::size_t JobExecutor::runPoints(const std::shared_ptr<const Variant>& kernel,
                                   const std::vector<ParamSet>& points, const JobOptions& options,
                                   std::optional<std::int64_t> sweepId,
                                   const std::atomic<bool>* cancel, const JobEvents& events) {
  const CopyCeiling copyCeiling =
      options.copyCeiling ? *options.copyCeiling : ceiling(cancel, events);
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (events.progress) {
      const double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const double eta =
          i ? elapsed / static_cast<double>(i) * static_cast<double>(points.size() - i) : 0;
      events.progress(i, points.size(), eta,
                      kernel->info().family + "/" + kernel->info().name + " " + points[i].toText());
    }
    RunRequest request{kernel->info().family,
                       kernel->info().name,
                       kernel,
                       points[i],
                       options.timing,
                       options.seed,
                       options.verifyOnly,
                       options.metrics,
                       options.hangSeconds};
    RunResult result = runner().run(request, cancel);
    result.ceilingBandwidth = copyCeiling.bandwidth;
    std::optional<std::int64_t> runId;
    if (store_) runId = store_->insertRun(result, sweepId, options.tags);
    if (events.result) events.result(i, result, runId);
    if (result.status == RunStatus::Failed && !runner().healthy())
      throw Error(ErrorKind::Cuda, "the CUDA context is broken after: " + result.error +
                                       "; no further runs can start in this process");
  }
  if (events.progress) events.progress(points.size(), points.size(), 0, "done");
  return points.size();
}

}  // namespace kwb
