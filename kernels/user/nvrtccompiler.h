#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/diagnostic.h"

namespace kwb {

// One user kernel file compiled for one configuration: NVRTC needs no GPU, so a file is checked
// and compiled where there is none (CI, `kwb check`), and run where there is one.
struct CompileRequest {
  std::string source;
  std::string fileName;                                      // named in diagnostics
  int arch = 90;                                             // sm_90: what the cubin is for
  std::vector<std::pair<std::string, std::string>> defines;  // -DNAME=VALUE
  std::vector<std::string> nameExpressions;  // "transpose<32>": the kernels to find in the module
  // Where each name expression comes from ("launch[0].kernel" and its line): NVRTC reports a
  // name expression that names no kernel against a file of its own, said here against the spec.
  std::vector<std::pair<std::string, int>> nameOrigins = {};
};

struct CompiledModule {
  bool ok = false;
  std::vector<char> cubin;
  std::string log;
  std::vector<Diagnostic> diagnostics;
  std::map<std::string, std::string> loweredNames;  // name expression -> mangled symbol
  double seconds = 0;                               // the compile's wall time
};

// "13.0": the NVRTC the workbench compiles with, part of a compiled module's cache key.
std::string nvrtcVersion();

// Compiles with -lineinfo and C++17 for sm_<arch>. A program that does not compile comes back
// with ok false and its diagnostics; Error(Internal) only where NVRTC itself fails.
CompiledModule compileKernel(const CompileRequest& request);

// NVRTC's complaints about a name expression, said against the spec's field and line instead of
// NVRTC's own name map.
std::vector<Diagnostic> attributeNameMapErrors(const CompileRequest& request,
                                               std::vector<Diagnostic> diagnostics);

// The diagnostics of an NVRTC log ("t.cu(12): error: ...").
std::vector<Diagnostic> parseNvrtcLog(const std::string& log);

}  // namespace kwb
