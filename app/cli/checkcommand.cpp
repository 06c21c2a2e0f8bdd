// `kwb check`: each kernel file's spec read and its default configuration compiled with NVRTC,
// which needs no GPU: what CI runs over the kernel files that ship.
#include <cstdio>

#include "app/cli/clicontext.h"
#include "app/cli/exitcodes.h"
#include "core/error.h"
#include "core/format.h"
#include "core/validation.h"
#include "kernels/user/kernelfile.h"
#include "kernels/user/uservariant.h"

namespace kwb {
namespace {

// False, with the reasons on err, where the file cannot be used.
bool checkFile(CliContext& context, const std::string& path, int arch) {
  try {
    const KernelFile file = readKernelFile(path);
    const ParamSet defaults = resolveParams(file.spec.paramSpecs(), {});
    // Restrictions that need no device hold for the defaults; the family it implements, if
    // any, takes them.
    UserVariant(file).check(defaults);
    const CompiledModule module = compileKernel(compileRequestFor(file, defaults, arch));
    for (const auto& d : module.diagnostics) context.err << printable(d.text()) << "\n";
    if (!module.ok) {
      if (module.diagnostics.empty()) context.err << printable(module.log) << "\n";
      return false;
    }
    char ms[32];
    std::snprintf(ms, sizeof ms, "%.0f ms", module.seconds * 1e3);
    context.out << path << ": spec ok, " << module.loweredNames.size() << " kernel"
                << (module.loweredNames.size() == 1 ? "" : "s") << " compiled for sm_" << arch
                << " in " << ms << " (" << defaults.toText() << ")\n";
    return true;
  } catch (const Error& e) {
    context.err << "kwb: " << printable(e.what()) << "\n";
    return false;
  }
}

}  // namespace

int checkCommand(CliContext& context, const std::vector<std::string>& files, int arch) {
  bool ok = true;
  for (const auto& file : files) ok = checkFile(context, file, arch) && ok;
  return ok ? kExitOk : kExitBadInput;
}

}  // namespace kwb
