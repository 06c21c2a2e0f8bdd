// `kwb explain RUN RUN`: why two stored runs differ, from their hardware metrics and, with
// --sass, their machine code.
#include <cmath>

#include "app/cli/clicontext.h"
#include "app/cli/exitcodes.h"
#include "app/cli/jobexecutor.h"
#include "app/cli/sasslookup.h"
#include "app/cli/table.h"
#include "core/error.h"
#include "core/explain.h"
#include "core/format.h"
#include "db/runstore.h"
#include "db/sasscache.h"
#include "kernels/registry.h"
#include "kernels/user/uservariant.h"

namespace kwb {
namespace {

constexpr std::size_t kMostRows = 20;

// The machine code of the kernels a stored run's configuration launches, as one summary: its
// kernel file's text as it ran, or the built-in variant, looked up as `kwb sass` does.
SassSummary sassOf(JobExecutor& executor, SassCache& cache, const RunResult& run) {
  const protocol::Kernel kernel = protocol::kernelOf(run);
  const auto variant = variantFor(kernel);
  const SassReport report =
      lookUpSass(executor.runner(), &cache, variant, resolveFor(*variant, kernel.params));
  std::vector<SassSummary> kernels;
  for (const SassKernel& k : report.kernels) kernels.push_back(summarizeSass(k.listing));
  return combinedSass(kernels);
}

}  // namespace

int explainCommand(CliContext& context, std::int64_t before, std::int64_t after, bool sass) {
  const auto store = context.openStore();
  const auto a = store->run(before), b = store->run(after);
  for (const auto& [id, record] : {std::pair{before, &a}, std::pair{after, &b}})
    if (!*record) throw Error(ErrorKind::Usage, "no run " + std::to_string(id) + " in the history");
  const RunResult& ra = (*a).result;
  const RunResult& rb = (*b).result;
  auto readings = readDifference(ra, rb);
  if (sass) {
    JobExecutor executor(store.get(), context.global.device);
    SassCache cache(store->database());
    const SassSummary sa = sassOf(executor, cache, ra), sb = sassOf(executor, cache, rb);
    if (const auto reading = readSassDifference(sa, sb))
      readings.push_back(*reading);
    else
      readings.push_back("global accesses in the machine code: the same widths in both (" +
                         notableText(sa) + ")");
  }
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
