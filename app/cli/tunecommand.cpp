// `kwb tune`: a strategy searches a space of configurations, on the GPU or over a stored sweep.
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "app/cli/clicontext.h"
#include "app/cli/exitcodes.h"
#include "app/cli/interruptscope.h"
#include "app/cli/table.h"
#include "core/format.h"
#include "core/jsoncodec.h"
#include "core/tuneexport.h"
#include "core/valueparse.h"
#include "core/version.h"
#include "db/runstore.h"
#include "db/tunehistory.h"
#include "kernels/registry.h"
#include "kernels/user/kernelfile.h"
#include "kernels/user/uservariant.h"
#include "measure/devicequery.h"
#include "measure/runner.h"

namespace kwb {
namespace {

// A confirming run times this many times longer than a point of the search, with at least
// kConfirmSamples samples, so that the verdicts between the leaders rest on enough of them.
constexpr double kConfirmBudgetFactor = 5;
constexpr std::size_t kConfirmSamples = 50;

TuneLimits limitsOf(const TuneCliOptions& o) {
  TuneLimits limits;
  limits.patience = o.patience;
  const std::string& b = o.searchBudget;
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

// The space, the way to measure a point and the report's kernel fields: on the GPU or replayed.
struct Session {
  std::unique_ptr<TuneSpace> space;
  Tuner::Evaluate evaluate;
  std::function<TuneMeasurement(std::size_t)> remeasure;
  TuneReport report;
};

// The report's kernel file, its defines and its templated kernels, for the header export.
void describeKernelFile(TuneReport& report, const KernelFile& file) {
  report.kernelFile = file.path;
  for (const auto& p : file.spec.params)
    if (p.binding == ParamBinding::Define) report.defines.push_back(p.spec.name);
  for (const auto& launch : file.spec.launches)
    if (!launch.templateArgs.empty())
      report.templates.emplace_back(launch.kernel.substr(0, launch.kernel.find('<')),
                                    launch.templateArgs);
}

std::string tuneKey(const std::vector<SweepAxis>& axes, const RawParams& raw) {
  std::string key;
  for (const auto& axis : axes)
    key += (key.empty() ? "" : " ") + axis.param + "=" + raw.at(axis.param);
  return key;
}

void replaySession(Session& s, RunStore& store, const TuneCliOptions& o, bool withMetrics) {
  auto recorded = std::make_shared<RecordedSweep>(recordedSweep(store, *o.replay));
  const auto axes = recorded->axes;
  s.space = std::make_unique<TuneSpace>(
      RawParams{}, axes, o.restrictions, [recorded, axes](const RawParams& raw) {
        const auto it = recorded->runs.find(tuneKey(axes, raw));
        if (it == recorded->runs.end() || it->second.result.status != RunStatus::Ok)
          throw paramError(axes.front().param, "this point has no good run in the sweep");
        return it->second.result.params();
      });
  const auto load = [&store, recorded, withMetrics](std::size_t, const std::string& key) {
    const RunRecord& run = recorded->runs.at(key);
    if (!withMetrics) return tuneMeasurementOf(run.result, run.id, false);
    return tuneMeasurementOf(store.run(run.id)->result, run.id, false);
  };
  const TuneSpace* space = s.space.get();
  s.evaluate = [load, space](std::size_t index, const ParamSet&) {
    return load(index, space->describe(index));
  };
  // No GPU to measure again: the stored samples are compared.
  s.remeasure = [&store, recorded, space](std::size_t index) {
    const RunRecord& run = recorded->runs.at(space->describe(index));
    return tuneMeasurementOf(store.run(run.id)->result, run.id, false);
  };
  s.report.family = recorded->family;
  s.report.variant = recorded->variant;
  s.report.sweepId = recorded->id;
  s.report.replayed = true;
  if (recorded->runs.empty()) return;
  const RunRecord& first = recorded->runs.begin()->second;
  s.report.device = first.deviceName;
  // A kernel file's runs keep its text: its spec says how the parameters reach the code.
  if (first.result.code) {
    const KernelCode code = store.kernelCode(first.id);
    describeKernelFile(s.report, kernelFileOf(code.file, code.source));
  }
}

std::string formatRatio(double ratio) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3fx", ratio);
  return text;
}

void printProgress(std::ostream& err, const TuneSpace& space, const TuneOutcome& sofar,
                   const TuneLimits& limits) {
  const TuneEvaluation& e = sofar.evaluations.back();
  err << "[" << sofar.evaluations.size();
  if (limits.evaluations) err << "/" << limits.evaluations;
  err << "] " << space.describe(e.index) << ": ";
  if (e.measurement.outcome == TuneMeasurement::Outcome::Ok)
    err << formatSeconds(e.measurement.median) << (e.measurement.cached ? " (history)" : "");
  else
    err << "did not run: " << e.measurement.error;
  if (sofar.best) {
    const TuneEvaluation& b = sofar.evaluations[*sofar.best];
    err << " | best " << formatSeconds(b.measurement.median) << " " << space.describe(b.index);
  }
  err << "\n";
}

void printReport(std::ostream& out, const TuneReport& r) {
  const TuneSpace& space = *r.space;
  const TuneOutcome& outcome = r.outcome;
  out << (r.kernelFile.empty() ? r.family + "/" + r.variant : r.kernelFile) << " on " << r.device
      << ": " << space.size() << " points, " << space.validCount() << " valid ("
      << space.size() - space.validCount() << " break a restriction or the variant's rules); "
      << toString(r.strategy) << " search, objective " << toString(r.objective)
      << (r.replayed ? ", replaying sweep " + std::to_string(*r.sweepId) : "") << "\n";
  out << "stopped: " << outcome.stopped << " after " << outcome.evaluations.size()
      << " evaluations (" << outcome.cacheHits() << " from the history, " << outcome.failures()
      << " did not run)";
  if (!outcome.evaluations.empty())
    out << ", " << formatSeconds(outcome.evaluations.back().elapsed);
  out << "\n";
  if (r.finalists.empty()) {
    out << "no configuration ran\n";
    return;
  }
  out << (r.replayed ? "the best " + std::to_string(r.finalists.size()) +
                           ", compared by their stored samples:\n"
                     : "the best " + std::to_string(r.finalists.size()) +
                           ", measured again and compared:\n");
  std::vector<std::string> headers{"rank"};
  for (const auto& axis : space.axes()) headers.push_back(axis.param);
  for (const char* h : {"median", "95% interval", "bandwidth", "against the best", "tied"})
    headers.emplace_back(h);
  Table table(headers);
  for (std::size_t i = 0; i < r.finalists.size(); ++i) {
    const TuneFinalist& f = r.finalists[i];
    std::vector<std::string> row{std::to_string(i + 1)};
    const TunePoint p = space.point(f.index);
    for (std::size_t a = 0; a < space.axes().size(); ++a)
      row.push_back(space.axes()[a].values[p[a]]);
    const Interval interval = medianInterval(f.measurement.samples);
    row.push_back(formatSeconds(f.measurement.median));
    row.push_back(formatSeconds(interval.low) + " - " + formatSeconds(interval.high));
    row.push_back(formatBandwidth(f.measurement.bandwidth));
    row.push_back(!f.againstBest ? (i == 0 ? "best" : "-")
                                 : formatRatio(f.againstBest->ratio) + " " +
                                       std::string(toString(f.againstBest->kind)));
    row.push_back(f.tied ? "yes" : "no");
    table.addRow(row);
  }
  table.print(out);
  std::size_t tied = 0;
  for (const auto& f : r.finalists) tied += f.tied;
  out << (tied == 1 ? "the best stands alone: every other finalist is slower\n"
                    : std::to_string(tied) +
                          " configurations cannot be told apart: any of them "
                          "is the best\n");
  if (needsEnergy(r.objective)) {
    out << "Pareto front of time and energy (no other point is better in both):\n";
    for (const std::size_t i : paretoFront(outcome.evaluations)) {
      const TuneEvaluation& e = outcome.evaluations[i];
      out << "  " << space.describe(e.index) << ": " << formatSeconds(e.measurement.median) << ", "
          << formatMetricValue(*e.measurement.energy, "J") << "\n";
    }
  }
  if (!r.replayed && r.sweepId)
    out << "runs filed under sweep " << *r.sweepId << " (replay: kwb tune --replay " << *r.sweepId
        << " --strategy NAME)\n";
}

void writeFile(const std::string& path, const std::string& text) {
  std::ofstream file(path);
  file << text;
  if (!file) throw Error(ErrorKind::Usage, "cannot write " + path);
}

}  // namespace

int tuneCommand(CliContext& context, const TuneCliOptions& o) {
  const auto strategy = parseTuneStrategy(o.strategy);
  if (!strategy)
    throw paramError("strategy", "'" + o.strategy +
                                     "' is none of exhaustive, random, annealing, genetic, model");
  const auto objective = parseTuneObjective(o.objective);
  if (!objective)
    throw paramError("objective",
                     "'" + o.objective + "' is none of time, bandwidth, energy, time,energy");
  const TuneLimits limits = limitsOf(o);
  if (o.replay && (!o.family.empty() || !o.axes.empty()))
    throw Error(ErrorKind::Usage,
                "--replay searches the sweep's own parameters: give no kernel and no -s");
  if (!o.replay && (o.family.empty() || o.axes.empty()))
    throw Error(ErrorKind::Usage, "tune needs a kernel and at least one -s name=values");

  std::unique_ptr<RunStore> store;
  if (!context.global.noStore || o.replay) store = context.openStore();
  Session s;
  std::unique_ptr<JobExecutor> executor;
  JobOptions job;
  JobOptions confirmJob;
  if (o.replay) {
    replaySession(s, *store, o, needsEnergy(*objective));
  } else {
    const auto kernel = variantFor(o.kernel());
    const VariantInfo& info = kernel->info();
    std::vector<SweepAxis> axes;
    for (const auto& text : o.axes) axes.push_back(parseSweepAxis(text, info.params));
    s.space = std::make_unique<TuneSpace>(
        o.rawParams(), std::move(axes), o.restrictions,
        [kernel](const RawParams& raw) { return resolveFor(*kernel, raw); });
    job = o.jobOptions();
    job.tags.push_back("tune");
    confirmJob = job;
    confirmJob.timing.budgetSeconds *= kConfirmBudgetFactor;
    confirmJob.timing.minSamples = std::max(confirmJob.timing.minSamples, kConfirmSamples);
    confirmJob.tags.back() = "tune:confirm";

    if (deviceCount() == 0) throw Error(ErrorKind::NoDevice, noDeviceReason());
    executor = std::make_unique<JobExecutor>(store.get(), context.global.device);
    const DeviceInfo& device = executor->device();
    s.report.family = info.family;
    s.report.variant = info.name;
    s.report.device = device.name;
    if (const auto* user = dynamic_cast<const UserVariant*>(kernel.get()))
      describeKernelFile(s.report, user->file());
    std::map<std::size_t, std::int64_t> cached;
    if (store && !o.rerun) {
      const TuneIdentity identity{info.family,
                                  info.name,
                                  device.uuid,
                                  kAppVersion,
                                  kernel->code() ? kernel->code()->hash : std::string(),
                                  job.timing.mode};
      cached = measuredPoints(*store, *s.space, identity);
    }
    if (store)
      s.report.sweepId = store->createSweep(info.family, info.name, toJson(ParamSet(o.rawParams())),
                                            tuneSweepAxes(*s.space, o.strategy, o.objective));
    const auto runOnce = [&, kernel](const ParamSet& params, const JobOptions& options) {
      TuneMeasurement m;
      JobEvents events;
      events.result = [&](std::size_t, const RunResult& r, std::optional<std::int64_t> id) {
        m = tuneMeasurementOf(r, id, false);
      };
      try {
        executor->runPoints(kernel, {params}, options, s.report.sweepId,
                            &InterruptScope::interrupted(), events);
      } catch (const Error& error) {
        if (error.kind() == ErrorKind::Cuda && executor->runner().hung()) {
          context.err << "kwb: " << printable(error.what()) << "\n";
          context.err.flush();
          std::_Exit(kExitFailed);  // the kernel still holds the device
        }
        if (error.kind() != ErrorKind::Param) throw;
        m.outcome = TuneMeasurement::Outcome::Rejected;
        m.error = error.what();
      }
      return m;
    };
    s.evaluate = [&, cached, runOnce](std::size_t index, const ParamSet& params) {
      if (const auto hit = cached.find(index); hit != cached.end())
        return tuneMeasurementOf(store->run(hit->second)->result, hit->second, true);
      return runOnce(params, job);
    };
    s.remeasure = [&, runOnce](std::size_t index) {
      return runOnce(*s.space->params(index), confirmJob);
    };
  }
  if (needsEnergy(*objective))
    s.evaluate = [measure = s.evaluate](std::size_t index, const ParamSet& params) {
      TuneMeasurement m = measure(index, params);
      if (m.outcome == TuneMeasurement::Outcome::Ok && !m.energy)
        throw Error(ErrorKind::Usage,
                    "the energy objective needs the GPU's power readings (NVML), and this run "
                    "has none: this host or this build of kwb reads no power; tune for time");
      return m;
    };
  s.report.strategy = *strategy;
  s.report.objective = *objective;
  s.report.seed = o.searchSeed;
  s.report.space = s.space.get();

  {
    InterruptScope interrupts;
    if (executor) executor->ceiling(&InterruptScope::interrupted(), {});
    auto search = makeTuneStrategy(*strategy, *s.space, o.searchSeed);
    const bool showProgress = !context.global.json || isatty(STDERR_FILENO);
    s.report.outcome =
        Tuner(*s.space, *search, *objective, limits)
            .run(s.evaluate, &InterruptScope::interrupted(), [&](const TuneOutcome& sofar) {
              if (showProgress) printProgress(context.err, *s.space, sofar, limits);
            });
    if (!InterruptScope::interrupted()) {
      try {
        s.report.finalists = confirmLeaders(
            s.report.outcome, *objective, o.confirm ? o.confirm : 1,
            o.confirm ? s.remeasure : [&](std::size_t index) {
              for (const auto& e : s.report.outcome.evaluations)
                if (e.index == index) return e.measurement;
              return TuneMeasurement{};
            });
      } catch (const Error& error) {
        if (error.kind() != ErrorKind::Cancelled) throw;
      }
    }
  }

  if (!o.output.empty()) writeFile(o.output, tuneReportJson(s.report).dump(2) + "\n");
  if (!o.header.empty()) writeFile(o.header, tuneHeader(s.report));
  if (context.global.json)
    context.out << tuneReportJson(s.report).dump(2) << "\n";
  else
    printReport(context.out, s.report);
  if (InterruptScope::interrupted()) return kExitCancelled;
  return s.report.finalists.empty() ? kExitFailed : kExitOk;
}

}  // namespace kwb
