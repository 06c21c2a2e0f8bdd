#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "core/error.h"
#include "kernels/user/nvrtccompiler.h"

namespace kwb {

// A kernel file that does not compile: Error(Usage) whose text is its diagnostics, one
// "FILE:LINE:COL: error: ..." a line, kept as values for the editor's markers.
class CompileError : public Error {
 public:
  explicit CompileError(std::vector<Diagnostic> diagnostics, const std::string& log);
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<Diagnostic> diagnostics_;
};

// A compiled configuration loaded on the device: its kernels by name expression, and its cubin
// (for the SASS view).
struct LoadedModule {
  std::string key;
  std::vector<char> cubin;
  std::map<std::string, std::string> loweredNames;
  std::map<std::string, cudaKernel_t> kernels;
  std::vector<Diagnostic> warnings;
  double compileSeconds = 0;  // 0 where it came from a cache
  std::string origin;         // "compiled", "memory" or "disk"
};

// The cache key of a compile: the source's hash with everything else that changes the cubin
// (options, architecture, the NVRTC version).
std::string moduleKey(const CompileRequest& request);

// Compiled modules by moduleKey(): kept loaded for the process, and their cubins on disk (under
// the XDG cache folder) for the next process, so that re-running an unchanged kernel compiles
// nothing. Thread-safe.
class ModuleCache {
 public:
  static ModuleCache& instance();
  // Compiles or finds, then loads into the current device's context. Throws CompileError.
  std::shared_ptr<const LoadedModule> load(const CompileRequest& request);

 private:
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const LoadedModule>> loaded_;
};

}  // namespace kwb
