// `kwb new` writes a starting kernel file; `kwb code` shows the code a stored run ran, or how
// two runs' code differs.
#include <filesystem>
#include <fstream>

#include "app/cli/clicontext.h"
#include "app/cli/exitcodes.h"
#include "core/error.h"
#include "core/kerneltemplate.h"
#include "core/linediff.h"
#include "db/runstore.h"

namespace kwb {
int newCommand(CliContext& context, const std::string& path, const std::string& implements,
               bool force) {
  const std::string text = kernelTemplate(implements.empty() ? "user" : implements);
  std::error_code error;
  if (!force && std::filesystem::exists(path, error))
    throw Error(ErrorKind::Usage, path + " exists; give --force to write over it");
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw Error(ErrorKind::Usage, path + ": cannot be written");
  context.out << "wrote " << path << ": edit it, then `kwb check " << path << "` and `kwb run "
              << path << "`\n";
  return kExitOk;
}

int codeCommand(CliContext& context, const std::vector<std::int64_t>& runs) {
  const auto store = context.openStore();
  const KernelCode first = store->kernelCode(runs.front());
  if (runs.size() == 1) {
    context.out << "// run " << runs.front() << ": " << first.file << " (sha256 " << first.hash
                << ")\n"
                << first.source;
    if (!first.source.ends_with('\n')) context.out << "\n";
    return kExitOk;
  }
  const KernelCode second = store->kernelCode(runs[1]);
  const std::string diff =
      unifiedDiff(first.source, second.source, "run " + std::to_string(runs[0]) + " " + first.file,
                  "run " + std::to_string(runs[1]) + " " + second.file);
  if (diff.empty())
    context.out << "runs " << runs[0] << " and " << runs[1] << " ran the same code (sha256 "
                << first.hash << ")\n";
  else
    context.out << diff;
  return kExitOk;
}

}  // namespace kwb
