#include "app/cli/sasslookup.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>

#include "core/cuobjdump.h"
#include "core/error.h"
#include "core/kernelname.h"
#include "db/sasscache.h"
#include "kernels/user/modulecache.h"
#include "kernels/user/uservariant.h"
#include "measure/runner.h"

namespace kwb {
namespace {

int archNumber(const std::string& arch) {
  return std::atoi(arch.c_str() + 3);  // "sm_90a" -> 90
}

// The SASS the driver loads on a device of `deviceArch`: its own, else the newest of the same
// major version below it; without either it compiles the PTX, and the newest SASS is shown.
std::string pickArch(const std::string& deviceArch, const std::vector<std::string>& archs,
                     std::string& notice) {
  if (archs.empty()) throw Error(ErrorKind::Tool, "this binary carries no SASS, only PTX");
  if (std::find(archs.begin(), archs.end(), deviceArch) != archs.end()) return deviceArch;
  const int device = archNumber(deviceArch);
  std::optional<std::string> compatible;
  for (const auto& arch : archs) {
    const int n = archNumber(arch);
    if (n / 10 == device / 10 && n < device && (!compatible || n > archNumber(*compatible)))
      compatible = arch;
  }
  if (compatible) return *compatible;
  const auto newest = *std::max_element(
      archs.begin(), archs.end(), [](auto& a, auto& b) { return archNumber(a) < archNumber(b); });
  notice = "this binary carries no SASS that a " + deviceArch +
           " device runs (the driver compiles its PTX when it loads); shown: " + newest +
           ", the newest it carries";
  return newest;
}

// This program's file, hashed once: its fat binary holds the kernels it launches.
struct OwnBinary {
  std::string path;
  std::string fingerprint;
};
const OwnBinary& ownBinary() {
  static const OwnBinary binary = [] {
    std::string path = currentExecutable();
    return OwnBinary{path, fileFingerprint(path)};
  }();
  return binary;
}

}  // namespace

SassReport lookUpSass(Runner& runner, SassCache* cache,
                      const std::shared_ptr<const Variant>& kernel, const ParamSet& params) {
  RunRequest request;
  request.kernel = kernel;
  request.params = params;
  const std::vector<std::string> symbols = runner.launchedKernels(request);

  SassReport report;
  report.family = kernel->info().family;
  report.variant = kernel->info().name;
  const DeviceInfo& device = runner.device();
  const int archNumber = device.ccMajor * 10 + device.ccMinor;
  const std::string deviceArch = "sm_" + std::to_string(archNumber);
  std::string binary = ownBinary().path;
  report.binary = ownBinary().fingerprint;
  const std::optional<std::string> tool = findCuobjdump();
  // A user's kernel: its configuration's cubin, compiled for this device (the run above did), is
  // the binary; written out for cuobjdump only where the cache lacks a listing.
  std::shared_ptr<const LoadedModule> cubin;
  if (const auto* user = dynamic_cast<const UserVariant*>(kernel.get())) {
    cubin =
        ModuleCache::instance().compile(compileRequestFor(user->file(), params, archNumber)).module;
    report.binary = "nvrtc-" + cubin->key;
    report.arch = deviceArch;
  } else if (tool) {
    // The binary does not change while it runs: its architectures are listed once.
    static const std::vector<std::string> archs = sassArchitectures(*tool, binary);
    report.arch = pickArch(deviceArch, archs, report.notice);
  } else {
    report.arch = deviceArch;
  }

  std::vector<std::string> missing;
  for (const auto& symbol : symbols) {
    std::optional<std::string> listing;
    if (cache) listing = cache->find(report.binary, report.arch, symbol);
    if (!listing) missing.push_back(symbol);
    report.kernels.push_back({symbol, shortKernelName(symbol), listing.value_or("")});
  }
  report.cached = missing.empty();
  if (missing.empty()) return report;
  if (!tool)
    throw Error(ErrorKind::Tool,
                "cuobjdump, which prints a kernel's machine code, is not installed here: install "
                "the CUDA toolkit, put its bin/ on PATH or name the program in KWB_CUOBJDUMP");
  if (cubin) {
    binary = (std::filesystem::temp_directory_path() / ("kwb-" + cubin->key + ".cubin")).string();
    std::ofstream(binary, std::ios::binary)
        .write(cubin->cubin.data(), static_cast<std::streamsize>(cubin->cubin.size()));
  }
  for (const auto& function : dumpSass(*tool, binary, report.arch, missing)) {
    if (cache) cache->store(report.binary, report.arch, function.symbol, function.listing);
    for (auto& listed : report.kernels)
      if (listed.symbol == function.symbol) listed.listing = function.listing;
  }
  for (const auto& listed : report.kernels)
    if (listed.listing.empty())
      throw Error(ErrorKind::Tool, "cuobjdump found no " + report.arch + " code for " +
                                       listed.name + " in " + binary);
  return report;
}

}  // namespace kwb
