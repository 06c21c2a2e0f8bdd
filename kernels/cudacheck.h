#pragma once

#include <cstddef>

#include <cuda_runtime.h>

namespace kwb {

// Throws Error(Cuda), or Error(NoDevice) for "no device"/"no driver", with the call's text,
// the CUDA error name and message, and the source file and line.
[[noreturn]] void throwCudaError(cudaError_t status, const char* call, const char* file, int line);

inline void checkCuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status != cudaSuccess) throwCudaError(status, call, file, line);
}

// Throws paramError("block_size") naming the kernel's own limit where its registers allow fewer
// threads per block than `block`: checked once, when a workload is made, not at each launch.
// Without a CUDA device there is nothing to check (and nothing will launch).
void checkBlockFits(const void* kernel, int block);

// Throws paramError("block_size") where a block of it needs more dynamic shared memory than the
// device `ordinal` gives a block (opted in); nothing to check without a device, as above.
void checkBlockSharedFits(std::size_t bytes, int block, int ordinal);

}  // namespace kwb

#define KWB_CUDA_CHECK(call) ::kwb::checkCuda((call), #call, __FILE__, __LINE__)
// After a kernel launch: launch-configuration errors surface here, not at the launch.
#define KWB_CHECK_LAUNCH(kernelName) \
  ::kwb::checkCuda(cudaGetLastError(), "launch of " kernelName, __FILE__, __LINE__)
