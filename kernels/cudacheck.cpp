#include "kernels/cudacheck.h"

#include <string>
#include <string_view>

#include "core/error.h"

namespace kwb {

void throwCudaError(cudaError_t status, const char* call, const char* file, int line) {
  // Source paths relative to the project, as people read them in the tree.
  std::string_view path(file);
  constexpr std::string_view kRoot = KWB_SOURCE_DIR;
  if (path.starts_with(kRoot)) path.remove_prefix(kRoot.size());

  const bool noDevice = status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver;
  std::string message = std::string(call) + " failed: " + cudaGetErrorString(status) + " (" +
                        cudaGetErrorName(status) + ") at " + std::string(path) + ":" +
                        std::to_string(line);
  if (noDevice) message = "no CUDA device: " + message;
  throw Error(noDevice ? ErrorKind::NoDevice : ErrorKind::Cuda, message);
}

}  // namespace kwb
