#include "kernels/user/modulecache.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/contenthash.h"
#include "kernels/cudacheck.h"

namespace kwb {
namespace {

namespace fs = std::filesystem;

std::string describe(const std::vector<Diagnostic>& diagnostics, const std::string& log) {
  std::string text;
  for (const auto& d : diagnostics)
    if (d.severity != "warning") text += (text.empty() ? "" : "\n") + d.text();
  return text.empty() ? "the kernel file does not compile:\n" + log : text;
}

// Where cubins are kept between processes; empty where there is no such folder to be had.
fs::path cacheFolder() {
  fs::path base;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    base = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home)
    base = fs::path(home) / ".cache";
  else
    return {};
  std::error_code ec;
  fs::create_directories(base / "kernel-workbench" / "modules", ec);
  return ec ? fs::path() : base / "kernel-workbench" / "modules";
}

// A cubin and its lowered names from the disk cache; false where they are not there whole.
bool readCached(const fs::path& folder, const std::string& key, LoadedModule& module) {
  if (folder.empty()) return false;
  std::ifstream cubin(folder / (key + ".cubin"), std::ios::binary);
  std::ifstream names(folder / (key + ".names"));
  if (!cubin || !names) return false;
  module.cubin.assign(std::istreambuf_iterator<char>(cubin), {});
  std::string line;
  while (std::getline(names, line)) {
    const auto tab = line.find('\t');
    if (tab == std::string::npos) return false;
    module.loweredNames[line.substr(0, tab)] = line.substr(tab + 1);
  }
  return !module.cubin.empty();
}

// Written beside and renamed into place, so that a reader never sees half a file.
void writeCached(const fs::path& folder, const std::string& key, const LoadedModule& module) {
  if (folder.empty()) return;
  const auto write = [&](const std::string& name, const std::string& bytes) {
    const fs::path temporary = folder / (name + ".part");
    {
      std::ofstream out(temporary, std::ios::binary);
      out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      if (!out) return;
    }
    std::error_code ec;
    fs::rename(temporary, folder / name, ec);
  };
  std::string names;
  for (const auto& [expression, lowered] : module.loweredNames)
    names += expression + "\t" + lowered + "\n";
  write(key + ".names", names);
  write(key + ".cubin", std::string(module.cubin.begin(), module.cubin.end()));
}

}  // namespace

CompileError::CompileError(std::vector<Diagnostic> diagnostics, const std::string& log)
    : Error(ErrorKind::Usage, describe(diagnostics, log)), diagnostics_(std::move(diagnostics)) {}

std::string moduleKey(const CompileRequest& request) {
  std::ostringstream key;
  key << "nvrtc " << nvrtcVersion() << "\nsm_" << request.arch << "\n";
  for (const auto& [name, value] : request.defines) key << "-D" << name << "=" << value << "\n";
  for (const auto& name : request.nameExpressions) key << "kernel " << name << "\n";
  key << request.fileName << "\n" << sha256Hex(request.source);
  return sha256Hex(key.str());
}

ModuleCache& ModuleCache::instance() {
  static ModuleCache cache;
  return cache;
}

ModuleUse ModuleCache::compile(const CompileRequest& request) {
  std::lock_guard lock(mutex_);
  return compileLocked(request);
}

ModuleUse ModuleCache::compileLocked(const CompileRequest& request) {
  const std::string key = moduleKey(request);
  if (const auto it = modules_.find(key); it != modules_.end()) return {it->second, std::nullopt};
  auto module = std::make_shared<LoadedModule>();
  module->key = key;
  const fs::path folder = cacheFolder();
  std::optional<double> seconds;
  if (!readCached(folder, key, *module)) {
    CompiledModule compiled = compileKernel(request);
    if (!compiled.ok) throw CompileError(std::move(compiled.diagnostics), compiled.log);
    module->cubin = std::move(compiled.cubin);
    module->loweredNames = std::move(compiled.loweredNames);
    seconds = compiled.seconds;
    writeCached(folder, key, *module);
  }
  modules_[key] = module;
  return {module, seconds};
}

ModuleUse ModuleCache::load(const CompileRequest& request) {
  std::lock_guard lock(mutex_);
  ModuleUse use = compileLocked(request);
  auto& module = modules_.at(use.module->key);
  if (!module->kernels.empty() || module->loweredNames.empty()) return use;
  // The library lives as long as the process: kernels of earlier runs may still be queued.
  cudaLibrary_t library = nullptr;
  KWB_CUDA_CHECK(cudaLibraryLoadData(&library, module->cubin.data(), nullptr, nullptr, 0, nullptr,
                                     nullptr, 0));
  std::map<std::string, cudaKernel_t> kernels;
  for (const auto& [expression, lowered] : module->loweredNames) {
    cudaKernel_t kernel = nullptr;
    KWB_CUDA_CHECK(cudaLibraryGetKernel(&kernel, library, lowered.c_str()));
    kernels[expression] = kernel;
  }
  module->kernels = std::move(kernels);
  return use;
}

}  // namespace kwb
