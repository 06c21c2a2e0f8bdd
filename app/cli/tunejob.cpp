#include "app/cli/tunejob.h"

#include <algorithm>

#include "core/jsoncodec.h"
#include "core/valueparse.h"
#include "core/version.h"
#include "db/runstore.h"
#include "db/tunehistory.h"
#include "kernels/registry.h"
#include "kernels/user/kernelfile.h"
#include "kernels/user/uservariant.h"

namespace kwb {
namespace {

// A confirming run times this many times longer than a point of the search, with at least
// kConfirmSamples samples, so that the verdicts between the leaders rest on enough of them.
constexpr double kConfirmBudgetFactor = 5;
constexpr std::size_t kConfirmSamples = 50;

TuneLimits limitsOf(const TuneSettings& t) {
  TuneLimits limits;
  limits.patience = t.patience;
  const std::string& b = t.searchBudget;
  if (b.empty()) return limits;
  const char unit = b.back();
  if (unit == 's' || unit == 'm') {
    const auto number = parseInteger(b.substr(0, b.size() - 1));
    if (number && *number > 0) {
      limits.seconds = static_cast<double>(*number) * (unit == 'm' ? 60 : 1);
      return limits;
    }
  } else if (const auto number = parseInteger(b); number && *number > 0) {
    limits.evaluations = static_cast<std::size_t>(*number);
    return limits;
  }
  throw Error(ErrorKind::Usage, "--budget '" + b +
                                    "' is neither a number of evaluations (200) nor a time "
                                    "(90s, 3m)");
}

}  // namespace

TunePlan planTuning(const TuneSettings& t) {
  const auto strategy = parseTuneStrategy(t.strategy);
  if (!strategy)
    throw paramError("strategy", "'" + t.strategy +
                                     "' is none of exhaustive, random, annealing, genetic, model");
  const auto objective = parseTuneObjective(t.objective);
  if (!objective)
    throw paramError("objective",
                     "'" + t.objective + "' is none of time, bandwidth, energy, time,energy");
  return {*strategy, *objective, limitsOf(t)};
}

void describeKernelFile(TuneReport& report, const KernelFile& file) {
  report.kernelFile = file.path;
  for (const auto& p : file.spec.params)
    if (p.binding == ParamBinding::Define) report.defines.push_back(p.spec.name);
  for (const auto& launch : file.spec.launches)
    if (!launch.templateArgs.empty())
      report.templates.emplace_back(launch.kernel.substr(0, launch.kernel.find('<')),
                                    launch.templateArgs);
}

void searchAndConfirm(TuneReport& report, const TunePlan& plan, std::size_t confirm,
                      const Tuner::EvaluateBatch& evaluate, std::size_t width,
                      const std::function<TuneMeasurement(std::size_t)>& remeasure,
                      const std::atomic<bool>* cancel, const Tuner::Progress& progress) {
  Tuner::EvaluateBatch measure = evaluate;
  if (needsEnergy(plan.objective))
    measure = [evaluate](const std::vector<std::size_t>& indices) {
      std::vector<TuneMeasurement> measured = evaluate(indices);
      for (const TuneMeasurement& m : measured)
        if (m.outcome == TuneMeasurement::Outcome::Ok && !m.energy)
          throw Error(ErrorKind::Usage,
                      "the energy objective needs the GPU's power readings (NVML), and this run "
                      "has none: this host or this build of kwb reads no power; tune for time");
      return measured;
    };
  report.strategy = plan.strategy;
  report.objective = plan.objective;
  auto search = makeTuneStrategy(plan.strategy, *report.space, report.seed);
  report.outcome = Tuner(*report.space, *search, plan.objective, plan.limits)
                       .run(measure, width, cancel, progress);
  if (cancel && *cancel) return;
  const auto stored = [&](std::size_t index) {
    for (const auto& e : report.outcome.evaluations)
      if (e.index == index) return e.measurement;
    return TuneMeasurement{};
  };
  try {
    report.finalists = confirmLeaders(report.outcome, plan.objective, confirm ? confirm : 1,
                                      confirm ? remeasure : stored);
  } catch (const Error& error) {
    if (error.kind() != ErrorKind::Cancelled) throw;
  }
}

GpuTuning::GpuTuning(std::shared_ptr<const Variant> kernel, const RawParams& base,
                     const TuneSettings& settings, const JobOptions& job)
    : kernel_(std::move(kernel)),
      base_(base),
      settings_(settings),
      plan_(planTuning(settings)),
      job_(job) {
  if (settings.axes.empty())
    throw Error(ErrorKind::Usage, "a tuning needs at least one tuned parameter (-s name=values)");
  if (job.verifyOnly)
    throw Error(ErrorKind::Usage, "--verify-only times nothing, and a tuning needs times");
  std::vector<SweepAxis> axes;
  for (const auto& text : settings.axes)
    axes.push_back(parseSweepAxis(text, kernel_->info().params));
  const auto variant = kernel_;
  space_ = std::make_unique<TuneSpace>(
      base_, std::move(axes), settings.restrictions,
      [variant](const RawParams& raw) { return resolveFor(*variant, raw); });
  if (!settings.shard.whole()) space_->keepShard(settings.shard);
  job_.tags.push_back("tune");
}

std::size_t GpuTuning::evaluationsAtMost() const {
  const std::size_t valid = space_->validCount();
  return plan_.limits.evaluations ? std::min(plan_.limits.evaluations, valid) : valid;
}

JobOptions GpuTuning::confirmOptions() const {
  JobOptions confirm = job_;
  confirm.timing.budgetSeconds *= kConfirmBudgetFactor;
  confirm.timing.minSamples = std::max(confirm.timing.minSamples, kConfirmSamples);
  confirm.timing.maxSamples = std::max(confirm.timing.maxSamples, confirm.timing.minSamples);
  confirm.tags.back() = kTuneConfirmTag;
  return confirm;
}

TuneReport GpuTuning::run(JobExecutor& executor, RunStore* store, const std::atomic<bool>* cancel,
                          const Tuner::Progress& progress, const JobEvents& events) {
  const JobOptions confirmJob = confirmOptions();
  std::size_t fresh = 0;
  const auto runOnce = [&](const ParamSet& params, const JobOptions& options,
                           std::optional<std::int64_t> sweepId) {
    TuneMeasurement m;
    JobEvents one;
    one.result = [&](std::size_t, const RunResult& r, std::optional<std::int64_t> id) {
      m = tuneMeasurementOf(r, id, false);
      if (events.result) events.result(fresh++, r, id);
    };
    try {
      executor.runPoints(kernel_, {params}, options, sweepId, cancel, one);
    } catch (const Error& error) {
      if (error.kind() != ErrorKind::Param) throw;
      m.outcome = TuneMeasurement::Outcome::Rejected;
      m.error = error.what();
    }
    return m;
  };
  const DeviceInfo device = executor.device();
  executor.ceiling(cancel, {});
  return run(device, 1, store, cancel, progress,
             [&](const std::vector<ParamSet>& points, bool confirming,
                 std::optional<std::int64_t> sweepId) {
               std::vector<TuneMeasurement> out;
               for (const auto& point : points)
                 out.push_back(runOnce(point, confirming ? confirmJob : job_, sweepId));
               return out;
             });
}

TuneReport GpuTuning::run(const DeviceInfo& device, std::size_t width, RunStore* store,
                          const std::atomic<bool>* cancel, const Tuner::Progress& progress,
                          const MeasurePoints& measure) {
  const VariantInfo& info = kernel_->info();
  TuneReport report;
  report.family = info.family;
  report.variant = info.name;
  report.device = device.name;
  report.seed = settings_.searchSeed;
  report.space = space_.get();
  if (const auto* user = dynamic_cast<const UserVariant*>(kernel_.get()))
    describeKernelFile(report, user->file());

  std::map<std::size_t, std::int64_t> cached;
  if (store && !settings_.rerun)
    cached =
        measuredPoints(*store, *space_,
                       {info.family, info.name, device.uuid, kAppVersion,
                        kernel_->code() ? kernel_->code()->hash : std::string(), job_.timing.mode});
  if (store)
    report.sweepId =
        store->createSweep(info.family, info.name, toJson(ParamSet(base_)),
                           tuneSweepAxes(*space_, settings_.strategy, settings_.objective));
  searchAndConfirm(
      report, plan_, settings_.confirm,
      [&](const std::vector<std::size_t>& indices) {
        std::vector<TuneMeasurement> out(indices.size());
        std::vector<std::size_t> fresh;
        std::vector<ParamSet> points;
        for (std::size_t k = 0; k < indices.size(); ++k) {
          if (const auto hit = cached.find(indices[k]); hit != cached.end()) {
            out[k] = tuneMeasurementOf(store->run(hit->second)->result, hit->second, true);
          } else {
            fresh.push_back(k);
            points.push_back(*space_->params(indices[k]));
          }
        }
        if (!points.empty()) {
          std::vector<TuneMeasurement> measured = measure(points, false, report.sweepId);
          for (std::size_t j = 0; j < fresh.size(); ++j) out[fresh[j]] = std::move(measured.at(j));
        }
        return out;
      },
      width,
      [&](std::size_t index) {
        return measure({*space_->params(index)}, true, report.sweepId).at(0);
      },
      cancel, progress);
  return report;
}

}  // namespace kwb
