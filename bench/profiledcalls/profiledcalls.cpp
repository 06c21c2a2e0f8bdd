// Calls of kwb's variants and of users' kernel files between cudaProfilerStart and
// cudaProfilerStop, every case in one process, so that a profiler started with --profile-from-start
// off sees only the timed calls and starts once for a whole grid of cases (Nsight Compute costs
// seconds a process).
//
// Reads one case a line on stdin: "family variant name=value ..." for a built-in variant, or
// "FILE.cu name=value ..." for a kernel file. Each case gets its own buffers filled as kwb run
// fills them, one call outside the profiled range (compiling, module loading, first touch), then
// `calls` calls inside it. Prints a line a case: the case, then its derived values, so that a
// script can tell which launch ran.
#include <cuda_profiler_api.h>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/error.h"
#include "kernels/cudacheck.h"
#include "kernels/registry.h"
#include "kernels/user/kernelfile.h"
#include "kernels/user/uservariant.h"
#include "measure/devicequery.h"
#include "measure/workloadbuffers.h"

namespace kwb {
namespace {

protocol::Kernel parseCase(const std::string& line) {
  std::istringstream words(line);
  protocol::Kernel kernel;
  words >> kernel.family;
  if (looksLikeKernelFile(kernel.family)) {
    const KernelFile file = readKernelFile(kernel.family);
    kernel = {{}, {}, {}, file.path, file.source};
  } else {
    words >> kernel.variant;
  }
  std::vector<std::string> items;
  for (std::string item; words >> item;) items.push_back(item);
  kernel.params = rawParamsOf(items);
  return kernel;
}

// The workload's derived values: which launch ran.
ParamSet profileCase(const protocol::Kernel& kernel, const DeviceInfo& device, int calls) {
  const auto variant = variantFor(kernel);
  const auto workload = variant->create(resolveFor(*variant, kernel.params), device);
  const std::vector<DeviceBuffer> buffers = workloadBuffers(*workload, 1, nullptr);
  std::vector<void*> pointers;
  for (const auto& buffer : buffers) pointers.push_back(buffer.data());
  workload->beforeCheckedRun(pointers, nullptr);
  workload->enqueue(pointers, nullptr);
  KWB_CUDA_CHECK(cudaDeviceSynchronize());
  KWB_CUDA_CHECK(cudaProfilerStart());
  for (int call = 0; call < calls; ++call) workload->enqueue(pointers, nullptr);
  KWB_CUDA_CHECK(cudaDeviceSynchronize());
  KWB_CUDA_CHECK(cudaProfilerStop());
  KWB_CUDA_CHECK(cudaGetLastError());
  return workload->derived();
}

}  // namespace
}  // namespace kwb

int main(int argc, char** argv) {
  CLI::App app{
      "Runs each case read on stdin (\"family variant name=value ...\" or \"FILE.cu "
      "name=value ...\") `calls` times between cudaProfilerStart and cudaProfilerStop, all in "
      "one process."};
  int calls = 7;
  int deviceIndex = 0;
  app.add_option("--calls", calls, "profiled calls a case")->check(CLI::PositiveNumber);
  app.add_option("--device", deviceIndex, "CUDA device index");
  CLI11_PARSE(app, argc, argv);
  try {
    KWB_CUDA_CHECK(cudaSetDevice(deviceIndex));
    const kwb::DeviceInfo device = kwb::queryDevice(deviceIndex);
    for (std::string line; std::getline(std::cin, line);) {
      if (line.find_first_not_of(" \t") == std::string::npos) continue;
      const kwb::ParamSet derived = kwb::profileCase(kwb::parseCase(line), device, calls);
      std::cout << line << " | " << derived.toText() << std::endl;
    }
  } catch (const kwb::Error& error) {
    std::cerr << "kwb-profiled-calls: " << error.what() << "\n";
    return 1;
  }
}
