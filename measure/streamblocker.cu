#include "measure/streamblocker.h"

#include <cstdint>

#include "kernels/cudacheck.h"

namespace kwb {
namespace {

constexpr std::uint64_t kTimeoutNs = 10'000'000'000ull;

__device__ std::uint64_t globalTimerNs() {
  std::uint64_t ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

__global__ void spinUntilReleased(volatile int* flags) {
  const std::uint64_t start = globalTimerNs();
  while (flags[0] == 0) {
    if (globalTimerNs() - start > kTimeoutNs) {
      flags[1] = 1;
      return;
    }
  }
}

}  // namespace

StreamBlocker::StreamBlocker() {
  int* host = nullptr;
  KWB_CUDA_CHECK(cudaHostAlloc(&host, 2 * sizeof(int), cudaHostAllocMapped));
  flags_ = host;
  flags_[0] = 0;
  flags_[1] = 0;
  KWB_CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&deviceFlags_), host, 0));
}

StreamBlocker::~StreamBlocker() {
  cudaFreeHost(const_cast<int*>(flags_));  // nothing to report from a destructor
}

void StreamBlocker::block(cudaStream_t stream) {
  flags_[0] = 0;
  flags_[1] = 0;
  spinUntilReleased<<<1, 1, 0, stream>>>(deviceFlags_);
  KWB_CHECK_LAUNCH("spinUntilReleased");
}

void StreamBlocker::release() {
  flags_[0] = 1;
}

bool StreamBlocker::timedOut() const {
  return flags_[1] != 0;
}

}  // namespace kwb
