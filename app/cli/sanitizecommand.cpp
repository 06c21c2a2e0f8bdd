// `kwb run ... --sanitize`: one checked call of the configuration under compute-sanitizer's
// memcheck, in a process of its own, and the first errors it finds with their source lines.
#include <nlohmann/json.hpp>

#include "app/cli/clicontext.h"
#include "app/cli/exitcodes.h"
#include "core/cuobjdump.h"
#include "core/error.h"
#include "core/format.h"
#include "core/memcheckreport.h"
#include "core/toolkitprogram.h"
#include "kernels/registry.h"
#include "kernels/user/uservariant.h"

namespace kwb {
namespace {

// Enough to see the pattern of a bug; memcheck counts the rest.
constexpr const char* kFindingsShown = "10";

std::string where(const MemcheckFinding& f) {
  return f.file.empty() ? f.kernel : f.file + ":" + std::to_string(f.line);
}

}  // namespace

int sanitizeCommand(CliContext& context, const MeasureCliOptions& options) {
  // Everything that needs no device is checked here first, with this process's messages.
  const auto kernel = variantFor(options.kernel());
  resolveFor(*kernel, options.rawParams());
  const auto tool = findToolkitProgram("compute-sanitizer", "KWB_COMPUTE_SANITIZER");
  if (!tool)
    throw Error(ErrorKind::Tool,
                "compute-sanitizer, which checks a kernel's memory accesses, is not installed "
                "here: install the CUDA toolkit, put its bin/ on PATH or name the program in "
                "KWB_COMPUTE_SANITIZER");
  std::vector<std::string> argv{*tool,
                                "--tool",
                                "memcheck",
                                "--report-api-errors",
                                "no",
                                "--print-limit",
                                kFindingsShown,
                                currentExecutable(),
                                "--no-store",
                                "--device",
                                std::to_string(context.global.device),
                                "run",
                                options.family};
  if (!options.isFile()) argv.push_back(options.variant);
  for (const auto& [name, value] : options.rawParams()) argv.push_back(name + "=" + value);
  argv.insert(argv.end(), {"--verify-only", "--seed", std::to_string(options.seed), "--hang-after",
                           std::to_string(options.hangSeconds)});
  const ProgramOutput output = runProgram(argv);
  const MemcheckReport report = parseMemcheck(output.out + "\n" + output.err);
  if (!report.complete)
    throw Error(ErrorKind::Tool, *tool + " gave no summary: " +
                                     printable(output.err.substr(0, output.err.find('\n'))));

  if (context.global.json) {
    nlohmann::json findings = nlohmann::json::array();
    for (const auto& f : report.findings)
      findings.push_back({{"what", f.what},
                          {"kernel", f.kernel},
                          {"file", f.file},
                          {"line", f.line},
                          {"thread", f.thread},
                          {"address", f.address}});
    context.out << nlohmann::json{{"errors", report.errors}, {"findings", findings}}.dump(2)
                << "\n";
  } else {
    const VariantInfo& info = kernel->info();
    context.out << "memcheck, one checked call of " << info.family << "/" << info.name << ": "
                << report.errors << (report.errors == 1 ? " error" : " errors") << "\n";
    for (const auto& f : report.findings)
      context.out << where(f) << ": " << f.what << (f.thread.empty() ? "" : ", " + f.thread)
                  << (f.address.empty() ? "" : "; " + f.address) << "\n";
    if (report.findings.size() < report.errors)
      context.out << "(the first " << report.findings.size() << " shown)\n";
  }
  return report.errors == 0 ? kExitOk : kExitFailed;
}

}  // namespace kwb
