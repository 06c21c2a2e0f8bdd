#pragma once

#include <string>

#include "core/kernelspec.h"
#include "core/paramset.h"
#include "kernels/user/nvrtccompiler.h"

namespace kwb {

// A user's kernel file read from disk: its source and its checked spec. Throws Error(Usage)
// naming the file where it cannot be read or its spec is wrong.
struct KernelFile {
  std::string path;
  std::string source;
  KernelSpec spec;
};
KernelFile readKernelFile(const std::string& path);
// The same for a file's text at hand (a request carries it to the worker that runs it).
KernelFile kernelFileOf(const std::string& path, std::string source);

// Whether a command line's kernel argument names a file (saxpy.cu, ./k/t.cu) rather than a family.
bool looksLikeKernelFile(std::string_view text);

// What NVRTC compiles for one configuration of the file: define parameters as -D, template
// parameters substituted into each launch's kernel (and the reference kernel) as name expressions.
CompileRequest compileRequestFor(const KernelFile& file, const ParamSet& params, int arch);

// The name expression a launch compiles to with these values: "transpose<32, 4>".
std::string nameExpression(const KernelLaunchSpec& launch, const ParamSet& params);

}  // namespace kwb
