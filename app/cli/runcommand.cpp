// `kwb run` and `kwb sweep`: validate everything that needs no device, then run and store.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>

#include "app/cli/clicontext.h"
#include "app/cli/devicepool.h"
#include "app/cli/exitcodes.h"
#include "app/cli/interruptscope.h"
#include "app/cli/metricstable.h"
#include "app/cli/poolgpus.h"
#include "app/cli/table.h"
#include "app/cli/workercommand.h"
#include "core/format.h"
#include "core/jsoncodec.h"
#include "core/metricrollup.h"
#include "core/resultcolumns.h"
#include "core/roofline.h"
#include "core/shard.h"
#include "core/valueparse.h"
#include "db/baselinestore.h"
#include "db/runstore.h"
#include "kernels/registry.h"
#include "kernels/user/uservariant.h"
#include "measure/devicequery.h"
#include "measure/runner.h"

namespace kwb {
namespace {

struct Completed {
  RunResult result;
  std::optional<std::int64_t> runId;
  int device = -1;  // the GPU's ordinal, where a sweep runs on several
};

std::string displayValue(const std::string& value) {
  auto number = parseInteger(value);
  return number ? formatInteger(*number) : value;
}

// The run and sweep table, printed a row at a time as the points finish: a sweep's swept
// parameters first (a run's parameters), then the measurement's columns.
class RunTable {
 public:
  RunTable(const std::vector<std::string>& axes, const std::vector<ParamSet>& points,
           bool byDevice = false)
      : byDevice_(byDevice),
        columns_(resultColumns({"time_median_s", "traced_s", "wall_s", "launches", "time_min_s",
                                "time_max_s", "rsd", "samples", "bandwidth_Bps", "ceiling_fraction",
                                "peak_fraction", "verify_rel_error", "status", "id"})),
        swept_(sweptNames(axes)),
        table_(headers()) {
    if (byDevice_) {
      widths_.push_back(3);
      right_.push_back(true);
    }
    // Widths known before the first row: the parameters' texts, and room for a typical value.
    const auto paramColumn = [&](const std::function<std::string(const ParamSet&)>& text) {
      std::size_t width = 0;
      bool numeric = true;
      for (const auto& point : points) {
        width = std::max(width, text(point).size());
        numeric = numeric && Table::looksNumeric(text(point));
      }
      widths_.push_back(width);
      right_.push_back(numeric);
    };
    if (swept_.empty()) paramColumn([](const ParamSet& p) { return p.toText(); });
    for (const auto& name : swept_)
      paramColumn([&](const ParamSet& p) { return displayValue(p.get(name)); });
    for (const ResultColumn* column : columns_) {
      widths_.push_back(column->numeric ? 9 : 6);
      right_.push_back(column->numeric);
    }
  }

  void printHeader(std::ostream& out) { table_.printHeader(out, widths_, right_); }

  void printRow(std::ostream& out, const Completed& c) const {
    std::vector<std::string> row;
    const RunResult& r = c.result;
    if (byDevice_) row.push_back(std::to_string(c.device));
    if (swept_.empty()) row.push_back(r.problem.toText() + " " + r.launch.toText());
    for (const auto& name : swept_) row.push_back(displayValue(r.param(name)));
    const RunRecord record{c.runId.value_or(0), std::nullopt, {}, r, {}};
    for (const ResultColumn* column : columns_) row.push_back(cellText(*column, record));
    table_.printRow(out, row);
  }

 private:
  static std::vector<std::string> sweptNames(const std::vector<std::string>& axes) {
    std::vector<std::string> names;
    for (const auto& axis : axes) names.push_back(axis.substr(0, axis.find('=')));
    return names;
  }
  std::vector<std::string> headers() const {
    std::vector<std::string> out;
    if (byDevice_) out.push_back("gpu");
    out.insert(out.end(), swept_.begin(), swept_.end());
    if (swept_.empty()) out.push_back("parameters");
    for (const ResultColumn* column : columns_) out.emplace_back(column->header);
    return out;
  }

  bool byDevice_;
  std::vector<const ResultColumn*> columns_;
  std::vector<std::string> swept_;
  Table table_;
  std::vector<std::size_t> widths_;
  std::vector<bool> right_;
};

// GPU state, hardware metrics, notices and errors below the table.
void printRunDetails(CliContext& context, const std::vector<Completed>& completed,
                     const std::vector<std::string>& axes) {
  std::vector<const RunResult*> runs;
  std::vector<std::string> labels;
  std::size_t throttledRuns = 0;
  for (const auto& [r, runId, device] : completed) {
    runs.push_back(&r);
    std::string label;
    for (const auto& axis : axes) {
      const std::string name = axis.substr(0, axis.find('='));
      label += (label.empty() ? "" : " ") + name + "=" + displayValue(r.param(name));
    }
    labels.push_back(label.empty() ? "value" : label);
    throttledRuns += r.throttledSamples.empty() ? 0 : 1;
  }
  if (completed.size() == 1) {
    const RunResult& run = completed.front().result;
    if (const std::string line = gpuStateLine(run); !line.empty())
      context.out << "gpu: " << line << "\n";
    if (run.status == RunStatus::Ok) printQuality(context.out, run);
  } else if (throttledRuns > 0) {
    context.err << "kwb: " << throttledRuns << " of " << completed.size()
                << " runs have samples taken while the GPU held its clocks down (power or "
                   "thermal limits); their times may be slow\n";
  }
  printMetricsTable(context.out, runs, labels);
  std::vector<std::string> notices;
  for (const auto& [r, runId, device] : completed) {
    if (!r.error.empty())
      context.err << "run " << (runId ? std::to_string(*runId) : "-") << ": " << r.error << "\n";
    if (!r.notice.empty() && std::find(notices.begin(), notices.end(), r.notice) == notices.end())
      notices.push_back(r.notice);
  }
  for (const auto& notice : notices) context.err << "kwb: " << notice << "\n";
}

// Where the run sits under the roofs its device measured (kwb devices --ceilings).
void printRoofline(CliContext& context, RunStore& store, const RunResult& run) {
  if (rooflinePoint(run)) {
    if (const auto reading = readRoofline(run, store.deviceCeilings(run.deviceUuid)))
      context.out << "roofline: " << reading->sentence << "\n";
    else
      context.out << "roofline: no measured roofs for this device yet (kwb devices --ceilings)\n";
  }
  if (const auto measured = measuredRooflinePoint(run))
    context.out << formatted(
        "roofline, measured: %.3g FLOP/byte at %.4g GFLOP/s (flops executed over DRAM bytes, "
        "from the counters)\n",
        measured->intensity, measured->flopsPerSecond / 1e9);
}

// Each stored run with a baseline of its configuration: its verdict against it.
void printBaselineVerdicts(CliContext& context, RunStore& store,
                           const std::vector<Completed>& completed) {
  for (const auto& [r, runId, device] : completed) {
    if (!runId) continue;
    if (const auto against = baselineVerdict(store, *runId, r)) {
      context.out << "run " << *runId << " against baseline run " << against->baselineId << ": "
                  << describe(against->verdict) << "\n";
      for (const auto& caveat : against->verdict.caveats)
        context.out << "  note: " << caveat << "\n";
    }
  }
}

// A run as --json lists it: its result and the id it was stored under.
nlohmann::json runJson(const Completed& c) {
  auto item = toJson(c.result);
  item["run_id"] = c.runId ? nlohmann::json(*c.runId) : nlohmann::json(nullptr);
  return item;
}

void sayStopped(CliContext& context, std::size_t finished, std::size_t points, bool stored) {
  context.err << "kwb: stopped; " << finished << " of " << points << " runs finished"
              << (stored ? " and are stored" : "") << "\n";
}

// The exit status of a run or sweep: cancelled where points are missing, then a failed check,
// then any other failure (`lost`: points that did not run).
int exitStatus(const std::vector<Completed>& completed, std::size_t points, std::size_t lost) {
  if (completed.size() + lost < points) return kExitCancelled;
  bool failed = lost > 0;
  for (const auto& c : completed) {
    if (c.result.status == RunStatus::VerificationFailed) return kExitVerification;
    failed = failed || c.result.status != RunStatus::Ok;
  }
  return failed ? kExitFailed : kExitOk;
}

// Points shared among a worker per GPU (`kwb --no-store --device D worker`, here or through ssh
// on --host); the results come back here and are stored, a sweep's as one sweep, each with the
// device it ran on.
int sweepOnDevices(CliContext& context, const MeasureCliOptions& options,
                   const protocol::Kernel& what, const Variant& kernel, const JobOptions& job,
                   const std::vector<ParamSet>& points, const std::vector<std::string>& axes) {
  const VariantInfo& info = kernel.info();
  const PoolGpus gpus = poolGpus(context, context.global.devices);
  const std::vector<int>& devices = gpus.ordinals;
  std::unique_ptr<RunStore> store;
  if (!context.global.noStore) store = context.openStore();
  if (store)
    for (int d : devices) store->upsertDevice(gpus.all[static_cast<std::size_t>(d)]);
  std::optional<std::int64_t> sweepId;
  if (store && !axes.empty())
    sweepId = store->createSweep(info.family, info.name, toJson(ParamSet(options.rawParams())),
                                 nlohmann::json(axes));

  const auto commands = gpus.commands(context.global.host);
  const std::string names = gpus.names(context.global.host);
  std::vector<RawParams> raw;
  for (const auto& point : points) raw.emplace_back(point.values().begin(), point.values().end());

  const bool json = context.global.json;
  RunTable table(axes, points, true);
  if (!json) {
    context.out << info.family << "/" << info.name
                << (options.isFile() ? " (" + options.family + ")" : "") << " on GPU"
                << (devices.size() > 1 ? "s " : " ") << names
                << ", a worker each: " << toString(job.timing.mode)
                << " samples, each run against its own GPU's copy ceiling\n";
    table.printHeader(context.out);
  }
  std::vector<Completed> completed;
  std::size_t lost = 0;
  PoolEvents events;
  events.result = [&](std::size_t, int device, const RunResult& run) {
    std::optional<std::int64_t> runId;
    if (store) runId = store->insertRun(run, sweepId, job.tags);
    completed.push_back({run, runId, device});
    if (!json) table.printRow(context.out, completed.back());
  };
  events.failed = [&](std::size_t index, int device, const std::string& sentence) {
    ++lost;
    context.err << "kwb: point " << index + 1 << " (" << points[index].toText() << ") on GPU "
                << device << ": " << printable(sentence) << "\n";
  };
  events.workerEnded = [&](int, const std::string& sentence) {
    context.err << "kwb: " << printable(sentence) << "; the other workers go on\n";
  };
  try {
    InterruptScope interrupts;
    runOnDevices(commands, devices, what, raw, options, &InterruptScope::interrupted(), events,
                 gpus.ceilings(store.get()));
  } catch (const Error& error) {
    if (error.kind() != ErrorKind::Cancelled) throw;
    sayStopped(context, completed.size(), points.size(), store != nullptr);
    if (completed.empty()) return kExitCancelled;
  }

  if (json) {
    nlohmann::json runs = nlohmann::json::array();
    for (const auto& c : completed) {
      auto item = runJson(c);
      item["device_ordinal"] = c.device;
      runs.push_back(item);
    }
    context.out << nlohmann::json{{"devices", devices},
                                  {"sweep_id",
                                   sweepId ? nlohmann::json(*sweepId) : nlohmann::json(nullptr)},
                                  {"runs", runs}}
                       .dump(2)
                << '\n';
  } else {
    printRunDetails(context, completed, axes);
    std::map<int, int> perDevice;
    for (const auto& c : completed) ++perDevice[c.device];
    context.out << "points per GPU:";
    for (const auto& [device, count] : perDevice) context.out << " " << device << ": " << count;
    context.out << "\n";
  }
  return exitStatus(completed, points.size(), lost);
}

}  // namespace

int runCommand(CliContext& context, const MeasureCliOptions& options,
               const std::vector<std::string>& sweepAxes) {
  const protocol::Kernel what = options.kernel();
  const auto kernel = variantFor(what);
  const VariantInfo& info = kernel->info();
  const RawParams raw = options.rawParams();
  const JobOptions job = options.jobOptions();
  std::vector<ParamSet> points = sweepAxes.empty() ? std::vector<ParamSet>{resolveFor(*kernel, raw)}
                                                   : expandFor(*kernel, raw, sweepAxes);
  if (!options.shardText.empty()) {
    const Shard shard = parseShard(options.shardText);
    std::vector<ParamSet> share;
    for (std::size_t k = 0; k < points.size(); ++k)
      if (shard.contains(k)) share.push_back(std::move(points[k]));
    points = std::move(share);
  }

  // Everything above needs no GPU; from here on the device is needed.
  if (!context.global.host.empty() || !context.global.devices.empty())
    return sweepOnDevices(context, options, what, *kernel, job, points, sweepAxes);
  if (deviceCount() == 0) throw Error(ErrorKind::NoDevice, noDeviceReason());
  std::unique_ptr<RunStore> store;
  if (!context.global.noStore) store = context.openStore();
  JobExecutor executor(store.get(), context.global.device);
  const DeviceInfo& device = executor.device();

  std::optional<std::int64_t> sweepId;
  if (store && !sweepAxes.empty())
    sweepId = store->createSweep(info.family, info.name, toJson(ParamSet(raw)),
                                 nlohmann::json(sweepAxes));

  const bool showProgress = !sweepAxes.empty() && isatty(STDERR_FILENO);
  const bool json = context.global.json;
  RunTable table(sweepAxes, points);
  std::vector<Completed> completed;
  JobEvents events;
  events.progress = [&](std::size_t done, std::size_t total, double eta, const std::string& text) {
    if (total == 0)
      context.err << text << "\n";
    else if (showProgress && done < total)
      context.err << "[" << done + 1 << "/" << total << ", " << static_cast<int>(eta) << " s left] "
                  << text << "\n";
  };
  events.result = [&](std::size_t, const RunResult& result, std::optional<std::int64_t> runId) {
    completed.push_back({result, runId});
    if (!json) table.printRow(context.out, completed.back());
  };

  try {
    InterruptScope interrupts;
    // The ceiling first: the header names it, and each row prints as its point finishes.
    const CopyCeiling ceiling = executor.ceiling(&InterruptScope::interrupted(), events);
    if (!json) {
      context.out << info.family << "/" << info.name
                  << (options.isFile() ? " (" + options.family + ")" : "") << " on " << device.name
                  << ": " << toString(job.timing.mode) << " samples, copy ceiling "
                  << formatBandwidth(ceiling.bandwidth) << ", peak "
                  << formatBandwidth(device.peakBandwidth) << "\n";
      table.printHeader(context.out);
    }
    executor.runPoints(kernel, points, job, sweepId, &InterruptScope::interrupted(), events);
  } catch (const Error& error) {
    if (error.kind() == ErrorKind::Cuda && executor.runner().hung()) {
      // The failed run is stored; leaving normally would wait for the kernel forever.
      context.err << "kwb: " << printable(error.what()) << "\n";
      context.out.flush();
      context.err.flush();
      std::_Exit(kExitFailed);
    }
    if (error.kind() != ErrorKind::Cancelled) throw;
    sayStopped(context, completed.size(), points.size(), store != nullptr);
    if (completed.empty()) return kExitCancelled;
  }

  if (json) {
    nlohmann::json runs = nlohmann::json::array();
    for (const Completed& c : completed) {
      auto item = runJson(c);
      if (const auto against = c.runId ? baselineVerdict(*store, *c.runId, c.result) : std::nullopt)
        item["against_baseline"] =
            verdictJson(against->verdict, against->baselineId, *c.runId, kSameBand);
      runs.push_back(item);
    }
    nlohmann::json out{{"device", toJson(device)},
                       {"copy_ceiling", toJson(executor.ceiling(nullptr, {}))},
                       {"sweep_id", sweepId ? nlohmann::json(*sweepId) : nlohmann::json(nullptr)},
                       {"runs", runs}};
    context.out << out.dump(2) << '\n';
  } else {
    if (completed.size() == 1 && !completed.front().result.derived.empty())
      context.out << "launch: " << completed.front().result.derived.toText() << "\n";
    printRunDetails(context, completed, sweepAxes);
    if (store) printBaselineVerdicts(context, *store, completed);
    if (store && completed.size() == 1) printRoofline(context, *store, completed.front().result);
  }

  return exitStatus(completed, points.size(), 0);
}

}  // namespace kwb
