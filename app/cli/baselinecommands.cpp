// `kwb baseline`, `kwb quality`, `kwb history --regressions`: runs marked as their
// configuration's baseline, later runs' verdicts against them, and how far a run can be trusted.
#include <nlohmann/json.hpp>

#include "app/cli/clicontext.h"
#include "app/cli/exitcodes.h"
#include "app/cli/metricstable.h"
#include "app/cli/table.h"
#include "core/error.h"
#include "core/format.h"
#include "core/measurementquality.h"
#include "core/resultcolumns.h"
#include "core/timeformat.h"
#include "core/verdict.h"
#include "db/baselinestore.h"
#include "db/runstore.h"

namespace kwb {
namespace {

std::string configuration(const RunRecord& r) {
  std::string text = r.result.family + "/" + r.result.variant;
  if (r.result.code) text += " (" + r.result.code->file + ")";
  for (const ParamSet* params : {&r.result.problem, &r.result.launch})
    if (!params->empty()) text += " " + params->toText();
  text += " " + std::string(toString(r.result.mode));
  return r.deviceName.empty() ? text : text + " on " + r.deviceName;
}

RunRecord load(RunStore& store, std::int64_t id) {
  auto record = store.run(id);
  if (!record) throw Error(ErrorKind::Database, "run " + std::to_string(id) + " vanished");
  return std::move(*record);
}

}  // namespace

int baselineCommand(CliContext& context, std::optional<std::int64_t> runId, bool sameSource,
                    bool clear) {
  auto store = context.openStore();
  BaselineStore baselines(store->database());
  if (runId && clear) {
    if (!baselines.clear(*runId))
      throw Error(ErrorKind::Usage, "run " + std::to_string(*runId) + " is no baseline");
    context.out << "run " << *runId << " is no longer a baseline\n";
    return kExitOk;
  }
  if (runId) {
    baselines.mark(*runId, sameSource);
    const RunRecord record = load(*store, *runId);
    context.out << "run " << *runId << " is the baseline of " << configuration(record)
                << (record.result.code ? (sameSource ? ", for this source version"
                                                     : ", whatever the source version")
                                       : "")
                << "\n";
    return kExitOk;
  }
  const auto all = baselines.all();
  if (context.global.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& b : all)
      out.push_back({{"run", b.runId}, {"same_source", b.sameSource}, {"marked_at", b.markedAt}});
    context.out << out.dump(2) << "\n";
    return kExitOk;
  }
  if (all.empty()) {
    context.out << "no baselines in " << store->path() << "; mark one with `kwb baseline RUN`\n";
    return kExitOk;
  }
  Table table({"run", "configuration", "event median", "marked"});
  for (const auto& b : all) {
    const RunRecord record = load(*store, b.runId);
    table.addRow({std::to_string(b.runId),
                  configuration(record) + (b.sameSource ? " (this source)" : ""),
                  formatSeconds(record.result.stats.median), formatTimestamp(b.markedAt)});
  }
  table.print(context.out);
  return kExitOk;
}

int qualityCommand(CliContext& context, std::int64_t runId) {
  auto store = context.openStore();
  auto record = store->run(runId);
  if (!record) throw Error(ErrorKind::Usage, "no run " + std::to_string(runId) + " in the history");
  const RunResult& run = record->result;
  if (run.stats.count == 0)
    throw Error(ErrorKind::Usage, "run " + std::to_string(runId) + " was not timed (" +
                                      std::string(toString(run.status)) + ")");
  const MeasurementQuality quality = assessQuality(run);
  const auto against = baselineVerdict(*store, runId, run);
  if (context.global.json) {
    nlohmann::json rows = nlohmann::json::object();
    for (const auto& [label, text] : qualityRows(run, quality)) rows[label] = text;
    nlohmann::json out{{"run", runId}, {"quality", rows}, {"doubts", quality.doubts}};
    if (against)
      out["against_baseline"] =
          verdictJson(against->verdict, against->baselineId, runId, kSameBand);
    context.out << out.dump(2) << "\n";
    return kExitOk;
  }
  context.out << "run " << runId << ": " << configuration(*record) << "\n";
  printQuality(context.out, run);
  if (against)
    context.out << "against baseline run " << against->baselineId << ": "
                << describe(against->verdict) << "\n";
  return kExitOk;
}

int regressionsCommand(CliContext& context, double band) {
  auto store = context.openStore();
  nlohmann::json found = nlohmann::json::array();
  Table table({"configuration", "baseline", "newest", "ratio", "95 % interval", "verdict"});
  for (const auto& pair : BaselineStore(store->database()).newestRuns()) {
    const RunRecord baseline = load(*store, pair.baselineId);
    const RunRecord newest = load(*store, pair.runId);
    const Verdict v = compareRuns(baseline.result, newest.result, band);
    if (v.kind != VerdictKind::Slower || v.explainedByClocks) continue;
    found.push_back(verdictJson(v, pair.baselineId, pair.runId, band));
    char interval[48];
    std::snprintf(interval, sizeof interval, "%.3f to %.3f", v.low, v.high);
    table.addRow({configuration(newest), std::to_string(pair.baselineId),
                  std::to_string(pair.runId), formatRatio(v.ratio), interval,
                  std::string(toString(v.kind))});
  }
  if (context.global.json)
    context.out << found.dump(2) << "\n";
  else if (table.empty())
    context.out << "no configuration's newest run is slower than its baseline\n";
  else
    table.print(context.out);
  return found.empty() ? kExitOk : kExitRegression;
}

}  // namespace kwb
