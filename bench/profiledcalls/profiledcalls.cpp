// Calls of built-in variants between cudaProfilerStart and cudaProfilerStop, every case in one
// process, so that a profiler started with --profile-from-start off sees only the timed calls
// and starts once for a whole grid of cases (Nsight Compute costs seconds a process).
//
// Reads one case a line on stdin: "family variant name=value ...". Each case gets its own
// buffers filled as kwb run fills them, one call outside the profiled range (module loading,
// first touch), then `calls` calls inside it. Prints a line a case: the case, then its derived
// values, so that a script can tell which launch ran.
#include <cuda_profiler_api.h>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/error.h"
#include "kernels/cudacheck.h"
#include "kernels/registry.h"
#include "measure/devicebuffer.h"
#include "measure/devicequery.h"
#include "measure/randomfill.h"

namespace kwb {
namespace {

struct Case {
  std::string family;
  std::string variant;
  RawParams params;
};

Case parseCase(const std::string& line) {
  std::istringstream words(line);
  Case c;
  words >> c.family >> c.variant;
  for (std::string item; words >> item;) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw Error(ErrorKind::Usage, "parameter '" + item + "' must look like name=value");
    c.params[item.substr(0, eq)] = item.substr(eq + 1);
  }
  return c;
}

std::vector<DeviceBuffer> filledBuffers(const Workload& workload, std::uint64_t seed) {
  std::vector<DeviceBuffer> buffers;
  const auto specs = workload.buffers();
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const std::size_t bytes = specs[i].count * sizeOf(specs[i].dtype);
    void* data = buffers.emplace_back(bytes).data();
    if (specs[i].output || specs[i].scratch) {
      KWB_CUDA_CHECK(cudaMemset(data, 0, bytes));
    } else if (auto host = workload.generateInput(i, seed + i)) {
      KWB_CUDA_CHECK(cudaMemcpy(data, host->data(), bytes, cudaMemcpyHostToDevice));
    } else {
      fillRandom(data, specs[i].dtype, specs[i].count, seed + i, nullptr);
    }
  }
  return buffers;
}

// The workload's derived values: which launch ran.
ParamSet profileCase(const Case& c, const DeviceInfo& device, int calls) {
  const Registry& registry = Registry::instance();
  const Variant& variant = registry.find(c.family, c.variant);
  const auto workload = variant.create(registry.resolve(c.family, c.variant, c.params), device);
  const std::vector<DeviceBuffer> buffers = filledBuffers(*workload, 1);
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
      "Runs each case read on stdin (\"family variant name=value ...\") `calls` times "
      "between cudaProfilerStart and cudaProfilerStop, all in one process."};
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
