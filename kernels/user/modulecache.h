#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
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

// A compiled configuration: its cubin (for the SASS view) and, once loaded on the device, its
// kernels by name expression.
struct LoadedModule {
  std::string key;
  std::vector<char> cubin;
  std::map<std::string, std::string> loweredNames;
  std::map<std::string, cudaKernel_t> kernels;  // empty until loaded
};

// A module as one request had it: compiled for it (and how long that took), or from a cache.
struct ModuleUse {
  std::shared_ptr<const LoadedModule> module;
  std::optional<double> compileSeconds;  // empty where a cache had it
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
  // Compiles or finds the cubin, without a device (a check, the SASS). Throws CompileError.
  ModuleUse compile(const CompileRequest& request);
  // The same, then loaded into the current device's context (once for the process).
  ModuleUse load(const CompileRequest& request);

 private:
  ModuleUse compileLocked(const CompileRequest& request);

  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<LoadedModule>> modules_;
};

}  // namespace kwb
