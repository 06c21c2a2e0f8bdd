// `kwb run` and `kwb sweep`: validate everything that needs no device, then run and store.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>

#include "app/cli/clicontext.h"
#include "app/cli/exitcodes.h"
#include "app/cli/metricstable.h"
#include "app/cli/table.h"
#include "core/format.h"
#include "core/jsoncodec.h"
#include "core/metricrollup.h"
#include "core/valueparse.h"
#include "db/runstore.h"
#include "kernels/registry.h"
#include "measure/devicequery.h"

namespace kwb {
namespace {

std::atomic<bool> gInterrupted{false};
extern "C" void onInterrupt(int) {
  gInterrupted = true;
}

// Ctrl-C stops the runs between samples while it lives; the previous handler comes back after.
class InterruptScope {
 public:
  InterruptScope() : previous_(std::signal(SIGINT, onInterrupt)) { gInterrupted = false; }
  ~InterruptScope() { std::signal(SIGINT, previous_); }
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

 private:
  void (*previous_)(int);
};

struct Completed {
  RunResult result;
  std::optional<std::int64_t> runId;
};

std::string displayValue(const std::string& value) {
  auto number = parseInteger(value);
  return number ? formatInteger(*number) : value;
}

std::string checkText(const RunResult& r) {
  if (!r.verification.checked) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%s %.1e", r.verification.passed ? "ok" : "FAIL",
                r.verification.relError);
  return text;
}

void printTable(std::ostream& out, const std::vector<Completed>& runs,
                const std::vector<std::string>& axes) {
  std::vector<std::string> headers;
  std::vector<std::string> sweptNames;
  for (const auto& axis : axes) sweptNames.push_back(axis.substr(0, axis.find('=')));
  if (sweptNames.empty()) headers.push_back("parameters");
  headers.insert(headers.end(), sweptNames.begin(), sweptNames.end());
  // "traced": the kernels' own time per call from activity records, beside the event median;
  // "wall": the host's time to issue a call and wait for it; "launches": the host's per call.
  for (const char* h : {"median", "traced", "wall", "launches", "min", "max", "rsd", "samples",
                        "bandwidth", "of ceiling", "of peak", "check", "status", "run"})
    headers.emplace_back(h);

  Table table(headers);
  for (const auto& [r, runId] : runs) {
    std::vector<std::string> row;
    if (sweptNames.empty()) row.push_back(r.problem.toText() + " " + r.launch.toText());
    for (const auto& name : sweptNames)
      row.push_back(displayValue(r.problem.has(name) ? r.problem.get(name) : r.launch.get(name)));
    char rsd[16];
    std::snprintf(rsd, sizeof rsd, "%.2f%%", r.stats.relStddev() * 100);
    const Metric* traced = r.metric(kActivityMedian);
    const Metric* wall = r.metric(kHostWall);
    const Metric* launches = r.metric(kHostLaunches);
    row.insert(row.end(),
               {formatSeconds(r.stats.median), traced ? formatSeconds(traced->value) : "-",
                wall ? formatSeconds(wall->value) : "-",
                launches ? formatInteger(static_cast<std::int64_t>(launches->value)) : "-",
                formatSeconds(r.stats.min), formatSeconds(r.stats.max), r.stats.count ? rsd : "-",
                std::to_string(r.stats.count), formatBandwidth(r.bandwidth),
                formatPercent(r.ceilingFraction()), formatPercent(r.peakFraction()), checkText(r),
                std::string(toString(r.status)), runId ? std::to_string(*runId) : "-"});
    table.addRow(std::move(row));
  }
  table.print(out);
}

// GPU state, hardware metrics, notices and errors below the table.
void printRunDetails(CliContext& context, const std::vector<Completed>& completed,
                     const std::vector<std::string>& axes) {
  std::vector<const RunResult*> runs;
  std::vector<std::string> labels;
  std::size_t throttledRuns = 0;
  for (const auto& [r, runId] : completed) {
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
    if (const std::string line = gpuStateLine(completed.front().result); !line.empty())
      context.out << "gpu: " << line << "\n";
  } else if (throttledRuns > 0) {
    context.err << "kwb: " << throttledRuns << " of " << completed.size()
                << " runs have samples taken while the GPU held its clocks down (power or "
                   "thermal limits); their times may be slow\n";
  }
  printMetricsTable(context.out, runs, labels);
  std::vector<std::string> notices;
  for (const auto& [r, runId] : completed) {
    if (!r.error.empty())
      context.err << "run " << (runId ? std::to_string(*runId) : "-") << ": " << r.error << "\n";
    if (!r.notice.empty() && std::find(notices.begin(), notices.end(), r.notice) == notices.end())
      notices.push_back(r.notice);
  }
  for (const auto& notice : notices) context.err << "kwb: " << notice << "\n";
}

}  // namespace

int runCommand(CliContext& context, const MeasureCliOptions& options,
               const std::vector<std::string>& sweepAxes) {
  const Registry& registry = Registry::instance();
  const RawParams raw = options.rawParams();
  const JobOptions job = options.jobOptions();
  const std::vector<ParamSet> points =
      sweepAxes.empty()
          ? std::vector<ParamSet>{registry.resolve(options.family, options.variant, raw)}
          : registry.expand(options.family, options.variant, raw, sweepAxes);

  // Everything above needs no GPU; from here on the device is needed.
  if (deviceCount() == 0) throw Error(ErrorKind::NoDevice, noDeviceReason());
  std::unique_ptr<RunStore> store;
  if (!context.global.noStore) store = context.openStore();
  JobExecutor executor(store.get(), context.global.device);
  const DeviceInfo& device = executor.device();

  std::optional<std::int64_t> sweepId;
  if (store && !sweepAxes.empty())
    sweepId = store->createSweep(options.family, options.variant, toJson(ParamSet(raw)),
                                 nlohmann::json(sweepAxes));

  const bool showProgress = !sweepAxes.empty() && isatty(STDERR_FILENO);
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
  };

  try {
    InterruptScope interrupts;
    executor.runPoints(options.family, options.variant, points, job, sweepId, &gInterrupted,
                       events);
  } catch (const Error& error) {
    if (error.kind() != ErrorKind::Cancelled) throw;
    context.err << "kwb: stopped; " << completed.size() << " of " << points.size()
                << " runs finished" << (store ? " and are stored" : "") << "\n";
    if (completed.empty()) return kExitCancelled;
  }

  const CopyCeiling ceiling = executor.ceiling(nullptr, {});
  if (context.global.json) {
    nlohmann::json runs = nlohmann::json::array();
    for (const auto& [r, runId] : completed) {
      auto item = toJson(r);
      item["run_id"] = runId ? nlohmann::json(*runId) : nlohmann::json(nullptr);
      runs.push_back(item);
    }
    nlohmann::json out{{"device", toJson(device)},
                       {"copy_ceiling", toJson(ceiling)},
                       {"sweep_id", sweepId ? nlohmann::json(*sweepId) : nlohmann::json(nullptr)},
                       {"runs", runs}};
    context.out << out.dump(2) << '\n';
  } else {
    context.out << options.family << "/" << options.variant << " on " << device.name << ": "
                << toString(job.timing.mode) << " samples, copy ceiling "
                << formatBandwidth(ceiling.bandwidth) << ", peak "
                << formatBandwidth(device.peakBandwidth) << "\n";
    printTable(context.out, completed, sweepAxes);
    if (completed.size() == 1 && !completed.front().result.derived.empty())
      context.out << "launch: " << completed.front().result.derived.toText() << "\n";
    printRunDetails(context, completed, sweepAxes);
  }

  if (completed.size() < points.size()) return kExitCancelled;
  bool failed = false;
  for (const auto& c : completed) {
    if (c.result.status == RunStatus::VerificationFailed) return kExitVerification;
    failed = failed || c.result.status != RunStatus::Ok;
  }
  return failed ? kExitFailed : kExitOk;
}

}  // namespace kwb
