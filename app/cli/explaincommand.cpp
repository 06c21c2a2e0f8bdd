// `kwb explain RUN RUN`: why two stored runs differ, from their hardware metrics.
#include <cmath>

#include "app/cli/clicontext.h"
#include "app/cli/exitcodes.h"
#include "app/cli/table.h"
#include "core/error.h"
#include "core/explain.h"
#include "core/format.h"
#include "db/runstore.h"

namespace kwb {
namespace {

constexpr std::size_t kMostRows = 20;

}  // namespace

int explainCommand(CliContext& context, std::int64_t before, std::int64_t after) {
  const auto store = context.openStore();
  const auto a = store->run(before), b = store->run(after);
  for (const auto& [id, record] : {std::pair{before, &a}, std::pair{after, &b}})
    if (!*record) throw Error(ErrorKind::Usage, "no run " + std::to_string(id) + " in the history");
  const RunResult& ra = (*a).result;
  const RunResult& rb = (*b).result;
  const auto readings = readDifference(ra, rb);
  const auto changes = metricChanges(ra, rb);
  if (context.global.json) {
    nlohmann::json deltas = nlohmann::json::array();
    for (const auto& c : changes)
      deltas.push_back({{"name", c.name},
                        {"unit", c.unit},
                        {"before", c.before},
                        {"after", c.after},
                        {"ratio", std::isfinite(c.ratio) ? nlohmann::json(c.ratio) : nullptr}});
    context.out << nlohmann::json{{"before", before},
                                  {"after", after},
                                  {"readings", readings},
                                  {"metrics", deltas}}
                       .dump(2)
                << '\n';
    return kExitOk;
  }
  context.out << describeRun(before, ra) << "\n" << describeRun(after, rb) << "\n";
  for (const auto& reading : readings) context.out << "- " << reading << "\n";
  if (changes.empty()) {
    context.out << "no hardware metrics read by both runs (kwb run ... --metrics all)\n";
    return kExitOk;
  }
  Table table({"metric", "run " + std::to_string(before), "run " + std::to_string(after), "ratio"});
  for (std::size_t i = 0; i < changes.size() && i < kMostRows; ++i) {
    const auto& c = changes[i];
    table.addRow({c.name, formatMetricValue(c.before, c.unit), formatMetricValue(c.after, c.unit),
                  ratioText(c)});
  }
  context.out << "\n";
  table.print(context.out);
  if (changes.size() > kMostRows)
    context.out << changes.size() - kMostRows << " more moved less (--json lists them all)\n";
  return kExitOk;
}

}  // namespace kwb
