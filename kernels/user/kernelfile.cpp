#include "kernels/user/kernelfile.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/error.h"

namespace kwb {

KernelFile readKernelFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorKind::Usage, path + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  return kernelFileOf(path, text.str());
}

KernelFile kernelFileOf(const std::string& path, std::string source) {
  KernelFile file{path, std::move(source), {}};
  file.spec = parseKernelSpec(specText(file.source, path), path);
  return file;
}

bool looksLikeKernelFile(std::string_view text) {
  return text.ends_with(".cu") || text.ends_with(".cuh") ||
         text.find('/') != std::string_view::npos;
}

std::string nameExpression(const KernelLaunchSpec& launch, const ParamSet& params) {
  const auto open = launch.kernel.find('<');
  if (open == std::string::npos) return launch.kernel;
  std::string out = launch.kernel.substr(0, open) + "<";
  for (std::size_t i = 0; i < launch.templateArgs.size(); ++i) {
    const std::string& arg = launch.templateArgs[i];
    out += (i ? ", " : "") + (params.has(arg) ? params.get(arg) : arg);
  }
  return out + ">";
}

CompileRequest compileRequestFor(const KernelFile& file, const ParamSet& params, int arch) {
  CompileRequest request{file.source, file.path, arch, {}, {}};
  for (const auto& p : file.spec.params)
    if (p.binding == ParamBinding::Define)
      request.defines.emplace_back(p.spec.name, params.get(p.spec.name));
  std::vector<const KernelLaunchSpec*> launches;
  for (const auto& launch : file.spec.launches) launches.push_back(&launch);
  if (file.spec.reference) launches.push_back(&*file.spec.reference);
  for (const KernelLaunchSpec* launch : launches) {
    const std::string name = nameExpression(*launch, params);
    if (std::find(request.nameExpressions.begin(), request.nameExpressions.end(), name) !=
        request.nameExpressions.end())
      continue;
    request.nameExpressions.push_back(name);
    request.nameOrigins.emplace_back(launch->field, launch->line);
  }
  return request;
}

}  // namespace kwb
