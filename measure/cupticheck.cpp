#include "measure/cupticheck.h"

#include <cupti.h>

#include <string_view>

namespace kwb {

void throwCuptiError(CUptiResult result, const char* call, const char* file, int line) {
  std::string_view path(file);
  constexpr std::string_view kRoot = KWB_SOURCE_DIR;
  if (path.starts_with(kRoot)) path.remove_prefix(kRoot.size());
  const char* text = nullptr;
  if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || !text) text = "unknown CUPTI error";
  throw CuptiError(result, std::string(call) + " failed: " + text + " (" +
                               std::to_string(static_cast<int>(result)) + ") at " +
                               std::string(path) + ":" + std::to_string(line));
}

std::string cuptiBlockedReason(const CuptiError& error) {
  switch (error.code()) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
      return "GPU performance counters need permission; run as root, or load the nvidia module "
             "with NVreg_RestrictProfilingToAdminUsers=0 (see "
             "https://developer.nvidia.com/ERR_NVGPUCTRPERM)";
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
      return "another profiler (Nsight Compute, Nsight Systems, a debugger or a CUPTI tool) is "
             "attached to this process; run kwb outside it";
    case CUPTI_ERROR_HARDWARE_BUSY:
      return "the GPU's counters are in use by another process (a profiler or DCGM's profiling "
             "module); stop it and run again";
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
      return "this virtual GPU exposes no counters unless its host enables profiling for it";
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
      return "this GPU, or this mode of it (MIG, confidential computing), does not support them";
    default: return std::string("CUPTI failed: ") + error.what();
  }
}

}  // namespace kwb
