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

void checkBlockFits(const void* kernel, int block) {
  cudaFuncAttributes attributes{};
  const cudaError_t status = cudaFuncGetAttributes(&attributes, kernel);
  if (status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver) {
    cudaGetLastError();  // not sticky, but leave nothing for a later check to find
    return;
  }
  checkCuda(status, "cudaFuncGetAttributes(&attributes, kernel)", __FILE__, __LINE__);
  if (block > attributes.maxThreadsPerBlock)
    throw paramError("block_size", std::to_string(block) +
                                       " threads do not fit: this kernel uses " +
                                       std::to_string(attributes.numRegs) +
                                       " registers per thread; allowed here: 32.." +
                                       std::to_string(attributes.maxThreadsPerBlock / 32 * 32));
}

void checkBlockSharedFits(std::size_t bytes, int block, int ordinal) {
  int most = 0;
  const cudaError_t status =
      cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, ordinal);
  if (status != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  if (bytes > static_cast<std::size_t>(most))
    throw paramError("block_size", std::to_string(block) + " threads need " +
                                       std::to_string(bytes / 1024) +
                                       " KiB of shared memory; this GPU gives a block " +
                                       std::to_string(most / 1024) + " KiB at most");
}

}  // namespace kwb
