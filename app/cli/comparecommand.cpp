// `kwb compare BASELINE RUN` and `kwb compare --baseline RUN`: whether a run is faster, slower or
// the same as another, from their raw samples, with the interval of the ratio of their medians
// and what the clocks say.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "app/cli/clicontext.h"
#include "app/cli/exitcodes.h"
#include "core/error.h"
#include "core/format.h"
#include "core/verdict.h"
#include "db/baselinestore.h"
#include "db/runstore.h"

namespace kwb {
namespace {

RunRecord load(RunStore& store, std::int64_t id) {
  auto record = store.run(id);
  if (!record) throw Error(ErrorKind::Usage, "no run " + std::to_string(id) + " in the history");
  if (record->result.samples.size() < 2)
    throw Error(ErrorKind::Usage,
                "run " + std::to_string(id) + " has no timing samples to compare");
  return std::move(*record);
}

std::string describe(const RunRecord& r) {
  std::string text =
      "run " + std::to_string(r.id) + " (" + r.result.family + "/" + r.result.variant;
  const std::string params = r.result.problem.toText() + " " + r.result.launch.toText();
  if (params.find_first_not_of(' ') != std::string::npos) text += " " + params;
  return text + ")";
}

}  // namespace

nlohmann::json verdictJson(const Verdict& v, std::int64_t baselineId, std::int64_t runId,
                           double band) {
  nlohmann::json out{{"baseline", baselineId},
                     {"run", runId},
                     {"ratio", v.ratio},
                     {"low", v.low},
                     {"high", v.high},
                     {"band", band},
                     {"verdict", toString(v.kind)},
                     {"explained_by_clocks", v.explainedByClocks},
                     {"caveats", v.caveats}};
  if (v.clockRatio) out["clock_ratio"] = *v.clockRatio;
  return out;
}

int compareCommand(CliContext& context, const std::vector<std::int64_t>& runs, bool withBaseline,
                   double band) {
  if (runs.size() != (withBaseline ? 1u : 2u))
    throw Error(ErrorKind::Usage, withBaseline ? "--baseline compares one run with its baseline"
                                               : "compare needs two runs: BASELINE RUN");
  const auto store = context.openStore();
  const std::int64_t runId = runs.back();
  std::int64_t baselineId = runs.front();
  if (withBaseline) {
    const auto baseline = BaselineStore(store->database()).of(runId);
    if (!baseline)
      throw Error(ErrorKind::Usage, "run " + std::to_string(runId) +
                                        " has no baseline before it; mark one with `kwb "
                                        "baseline RUN`");
    baselineId = baseline->runId;
  }
  const RunRecord baseline = load(*store, baselineId);
  const RunRecord run = load(*store, runId);
  const Verdict v = compareRuns(baseline.result, run.result, band);
  if (context.global.json) {
    context.out << verdictJson(v, baselineId, runId, band).dump(2) << "\n";
    return kExitOk;
  }
  context.out << describe(run) << "\n  against " << describe(baseline) << "\n  median "
              << formatSeconds(run.result.stats.median) << " against "
              << formatSeconds(baseline.result.stats.median) << " (" << run.result.samples.size()
              << " and " << baseline.result.samples.size() << " samples): " << describe(v) << "\n";
  if (v.clockRatio && !v.explainedByClocks) {
    char text[64];
    std::snprintf(text, sizeof text, "%.3f", *v.clockRatio);
    context.out << "  the SM clock was " << text << "x the baseline's\n";
  }
  for (const auto& caveat : v.caveats) context.out << "  note: " << caveat << "\n";
  return kExitOk;
}

}  // namespace kwb
