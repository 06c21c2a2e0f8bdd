// `kwb sass`: the machine code of the kernels a configuration launches, with the instructions
// that decide its memory traffic counted.
#include <memory>

#include "app/cli/clicontext.h"
#include "app/cli/exitcodes.h"
#include "app/cli/sasslookup.h"
#include "app/cli/workercommand.h"
#include "core/jsoncodec.h"
#include "db/runstore.h"
#include "db/sasscache.h"
#include "kernels/registry.h"
#include "kernels/user/uservariant.h"
#include "measure/runner.h"

namespace kwb {
namespace {

// One call on the GPU and cuobjdump over the binary, on the host, through ssh.
constexpr double kSassSeconds = 300;

}  // namespace

int sassCommand(CliContext& context, const MeasureCliOptions& options, bool summaryOnly) {
  protocol::Kernel configuration = options.kernel();
  const auto variant = variantFor(configuration);
  const ParamSet params = resolveFor(*variant, options.rawParams());
  SassReport report;
  if (const std::string& host = context.global.host; !host.empty()) {
    // The host's worker runs one call and reads its machine code there.
    configuration.params = RawParams(params.values().begin(), params.values().end());
    try {
      const protocol::ReplyBody answer =
          askWorker(workerCommand(host, context.global.device),
                    protocol::SassRequest{configuration}, kSassSeconds);
      const auto* listing = std::get_if<protocol::SassListing>(&answer);
      if (!listing) throw Error(ErrorKind::Internal, "the worker answered with another reply");
      report = listing->report;
    } catch (const Error& error) {
      throw Error(error.kind(), host + ": " + error.what());
    }
  } else {
    std::unique_ptr<RunStore> store;
    std::unique_ptr<SassCache> cache;
    if (!context.global.noStore) {
      store = context.openStore();
      cache = std::make_unique<SassCache>(store->database());
    }
    JobExecutor executor(store.get(), context.global.device);
    report = lookUpSass(executor.runner(), cache.get(), variant, params);
  }

  std::ostream& out = context.out;
  if (context.global.json) {
    out << toJson(report).dump(2) << "\n";
    return kExitOk;
  }
  out << report.family << "/" << report.variant << " " << params.toText() << "\n"
      << report.arch << " SASS " << (report.cached ? "from the history database" : "from cuobjdump")
      << "\n";
  if (!report.notice.empty()) out << "note: " << report.notice << "\n";
  if (report.kernels.empty())
    out << "one call launches no kernel (a copy engine or a driver call does the work)\n";
  for (const auto& kernel : report.kernels) {
    const SassSummary summary = summarizeSass(kernel.listing);
    out << "\n"
        << kernel.name << "  (" << summary.instructions << " instructions)\n  "
        << notableText(summary) << "\n";
    if (!summaryOnly) out << kernel.listing;
  }
  return kExitOk;
}

}  // namespace kwb
