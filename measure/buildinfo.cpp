#include "measure/buildinfo.h"

#include <cuda_runtime.h>

#include "core/version.h"
#include "kernels/user/nvrtccompiler.h"
#include "measure/measureconfig.h"
#if KWB_HAVE_CUPTI
#include <cupti.h>
#endif

namespace kwb {
namespace {

// 13000 -> "13.0".
std::string cudaVersion(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

}  // namespace

std::string describeArchitectures(const std::string& architectures) {
  std::string sass, ptx;
  std::size_t start = 0;
  while (start < architectures.size()) {
    const std::size_t end = std::min(architectures.find(';', start), architectures.size());
    std::string arch = architectures.substr(start, end - start);
    start = end + 1;
    if (arch.empty()) continue;
    const std::size_t dash = arch.find('-');
    const std::string number = arch.substr(0, dash);
    const std::string kind = dash == std::string::npos ? "" : arch.substr(dash + 1);
    if (kind != "virtual") sass += (sass.empty() ? "" : ", ") + ("sm_" + number);
    if (kind != "real") ptx += (ptx.empty() ? "" : ", ") + ("compute_" + number);
  }
  std::string text = "SASS " + (sass.empty() ? std::string("none") : sass);
  if (!ptx.empty()) text += "; PTX " + ptx;
  return text;
}

std::vector<std::pair<std::string, std::string>> buildInfo() {
  int runtime = 0, driver = 0;
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver);  // 0 without a driver
  std::vector<std::pair<std::string, std::string>> info{
      {"version", kAppVersion},
      {"CUDA runtime", cudaVersion(runtime)},
      {"CUDA driver", driver > 0 ? cudaVersion(driver) : "none"},
      {"NVRTC", nvrtcVersion()},
  };
#if KWB_HAVE_CUPTI
  std::uint32_t cupti = 0;
  info.emplace_back("CUPTI", cuptiGetVersion(&cupti) == CUPTI_SUCCESS
                                 ? "API " + std::to_string(cupti)
                                 : "unreadable");
#else
  info.emplace_back("CUPTI", "not in this build");
#endif
  info.emplace_back("code for", describeArchitectures(kCudaArchitectures));
  return info;
}

std::string buildInfoText() {
  std::string text = "kwb " + std::string(kAppVersion);
  for (const auto& [name, value] : buildInfo())
    if (name != "version") text += "\n" + name + ": " + value;
  return text;
}

}  // namespace kwb
