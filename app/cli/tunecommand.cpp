// `kwb tune`: a strategy searches a space of configurations, on the GPU or over a stored sweep.
#include <unistd.h>

#include <fstream>

#include "app/cli/clicontext.h"
#include "app/cli/devicepool.h"
#include "app/cli/exitcodes.h"
#include "app/cli/interruptscope.h"
#include "app/cli/pooledtuning.h"
#include "app/cli/poolgpus.h"
#include "app/cli/table.h"
#include "app/cli/tunejob.h"
#include "core/format.h"
#include "core/tuneexport.h"
#include "db/runstore.h"
#include "db/tunehistory.h"
#include "kernels/user/kernelfile.h"
#include "kernels/user/uservariant.h"
#include "measure/devicequery.h"
#include "measure/runner.h"

namespace kwb {
namespace {

// The space, the way to measure a point and the report's kernel fields: on the GPU or replayed.
struct Session {
  std::unique_ptr<TuneSpace> space;
  Tuner::Evaluate evaluate;
  std::function<TuneMeasurement(std::size_t)> remeasure;
  TuneReport report;
};

void replaySession(Session& s, RunStore& store, const TuneCliOptions& o, bool withMetrics) {
  s.report.seed = o.searchSeed;
  auto recorded = std::make_shared<RecordedSweep>(recordedSweep(store, *o.replay));
  const auto axes = recorded->axes;
  s.space = std::make_unique<TuneSpace>(
      RawParams{}, axes, o.restrictions, [recorded, axes](const RawParams& raw) {
        const auto it = recorded->runs.find(
            tunedValuesText(axes, [&](const std::string& param) { return raw.at(param); }));
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

void printProgress(std::ostream& err, const TuneSpace& space, const TuneOutcome& sofar,
                   const TuneLimits& limits) {
  err << "[" << sofar.evaluations.size();
  if (limits.evaluations) err << "/" << limits.evaluations;
  err << "] " << tuneProgressText(space, sofar) << "\n";
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

// Writes and prints the report; the exit status.
int finish(CliContext& context, const TuneCliOptions& o, const TuneReport& report) {
  if (!o.output.empty()) writeFile(o.output, tuneReportJson(report).dump(2) + "\n");
  if (!o.header.empty()) writeFile(o.header, tuneHeader(tuneReportJson(report)));
  if (context.global.json)
    context.out << tuneReportJson(report).dump(2) << "\n";
  else
    printReport(context.out, report);
  if (InterruptScope::interrupted()) return kExitCancelled;
  return report.finalists.empty() ? kExitFailed : kExitOk;
}

// --host or --devices: the search runs here and sends its points to a worker per GPU (here, or
// through ssh on the host), as many at a time as there are GPUs; the runs come back and are
// stored here under the tuning's sweep, with the GPU they ran on.
TuneReport tuneOnDevices(CliContext& context, const TuneCliOptions& o, GpuTuning& tuning,
                         RunStore* store, const Tuner::Progress& progress) {
  const std::string& host = context.global.host;
  const PoolGpus gpus = poolGpus(context, context.global.devices);
  if (store)
    for (const int d : gpus.ordinals) store->upsertDevice(gpus.all[static_cast<std::size_t>(d)]);
  const std::size_t width = gpus.ordinals.size();
  if (!context.global.json)
    context.err << "tuning on GPU" << (width > 1 ? "s " : " ") << gpus.names(host)
                << (width > 1 ? ", " + std::to_string(width) + " points at a time" : "") << "\n";
  DevicePool pool(gpus.commands(host), gpus.ordinals, gpus.ceilings(store));
  return tuneOnPool(tuning, pool, width, gpus.first(), o.kernel(), o, store,
                    &InterruptScope::interrupted(), progress, {}, [&](const std::string& sentence) {
                      context.err << "kwb: " << printable(sentence) << "\n";
                    });
}

}  // namespace

int tuneCommand(CliContext& context, const TuneCliOptions& o) {
  const TunePlan plan = planTuning(o);
  if (o.replay && (!o.family.empty() || !o.axes.empty()))
    throw Error(ErrorKind::Usage,
                "--replay searches the sweep's own parameters: give no kernel and no -s");
  if (!o.replay && (o.family.empty() || o.axes.empty()))
    throw Error(ErrorKind::Usage, "tune needs a kernel and at least one -s name=values");

  const bool showProgress = !context.global.json || isatty(STDERR_FILENO);
  std::unique_ptr<TuneSpace> replaySpace;
  const TuneSpace* space = nullptr;
  const auto progress = [&](const TuneOutcome& sofar) {
    if (showProgress) printProgress(context.err, *space, sofar, plan.limits);
  };
  TuneReport report;
  if (o.replay) {
    const auto store = context.openStore();
    Session s;
    replaySession(s, *store, o, needsEnergy(plan.objective));
    replaySpace = std::move(s.space);
    space = replaySpace.get();
    report = std::move(s.report);
    report.space = space;
    InterruptScope interrupts;
    const auto evaluate = [&s, space](const std::vector<std::size_t>& indices) {
      return std::vector<TuneMeasurement>{s.evaluate(indices[0], *space->params(indices[0]))};
    };
    searchAndConfirm(report, plan, o.confirm, evaluate, 1, s.remeasure,
                     &InterruptScope::interrupted(), progress);
    return finish(context, o, report);
  }
  {
    TuneSettings settings = o;
    if (!o.shardText.empty()) settings.shard = parseShard(o.shardText);
    GpuTuning tuning(variantFor(o.kernel()), o.rawParams(), settings, o.jobOptions());
    space = &tuning.space();
    // Everything above needs no GPU; from here on the device is needed.
    std::unique_ptr<RunStore> store;
    if (!context.global.host.empty() || !context.global.devices.empty()) {
      if (!context.global.noStore) store = context.openStore();
      InterruptScope interrupts;
      report = tuneOnDevices(context, o, tuning, store.get(), progress);
      return finish(context, o, report);
    }
    if (deviceCount() == 0) throw Error(ErrorKind::NoDevice, noDeviceReason());
    if (!context.global.noStore) store = context.openStore();
    JobExecutor executor(store.get(), context.global.device);
    try {
      InterruptScope interrupts;
      report = tuning.run(executor, store.get(), &InterruptScope::interrupted(), progress, {});
    } catch (const Error& error) {
      if (error.kind() == ErrorKind::Cuda && executor.runner().hung()) {
        context.err << "kwb: " << printable(error.what()) << "\n";
        context.err.flush();
        std::_Exit(kExitFailed);  // the kernel still holds the device
      }
      throw;
    }
    return finish(context, o, report);
  }
}

}  // namespace kwb
