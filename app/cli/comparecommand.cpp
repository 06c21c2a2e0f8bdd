// `kwb compare BASELINE RUN`: whether a run is faster, slower or the same as another, from their
// raw samples, with the interval of the ratio of their medians and what the clocks say.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "app/cli/clicontext.h"
#include "app/cli/exitcodes.h"
#include "core/error.h"
#include "core/format.h"
#include "core/verdict.h"
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

std::string fixed(double value, int digits) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

}  // namespace

int compareCommand(CliContext& context, std::int64_t baselineId, std::int64_t runId, double band) {
  const auto store = context.openStore();
  const RunRecord baseline = load(*store, baselineId);
  const RunRecord run = load(*store, runId);
  const Verdict v = compareRuns(baseline.result, run.result, band);
  if (context.global.json) {
    nlohmann::json out{{"baseline", baselineId},
                       {"run", runId},
                       {"ratio", v.ratio},
                       {"low", v.low},
                       {"high", v.high},
                       {"band", band},
                       {"verdict", toString(v.kind)},
                       {"explained_by_clocks", v.explainedByClocks}};
    if (v.clockRatio) out["clock_ratio"] = *v.clockRatio;
    out["caveats"] = v.caveats;
    context.out << out.dump(2) << "\n";
    return kExitOk;
  }
  context.out << describe(run) << "\n  against " << describe(baseline) << "\n  median "
              << formatSeconds(run.result.stats.median) << " against "
              << formatSeconds(baseline.result.stats.median) << ": " << fixed(v.ratio, 3)
              << "x the time (95 % interval " << fixed(v.low, 3) << " to " << fixed(v.high, 3)
              << ", " << run.result.samples.size() << " and " << baseline.result.samples.size()
              << " samples): " << toString(v.kind) << "\n";
  if (v.clockRatio)
    context.out << "  the SM clock was " << fixed(*v.clockRatio, 3) << "x the baseline's"
                << (v.explainedByClocks ? ": the clocks explain the difference, not the code" : "")
                << "\n";
  for (const auto& caveat : v.caveats) context.out << "  note: " << caveat << "\n";
  return kExitOk;
}

}  // namespace kwb
