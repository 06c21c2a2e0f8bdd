#include "gpu/spinkernel.h"

#include "kernels/cudacheck.h"

namespace kwb::testing {
namespace {
__global__ void spin(std::uint64_t nanoseconds) {
  std::uint64_t start;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  std::uint64_t now = start;
  while (now - start < nanoseconds) asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
}
}  // namespace

void launchSpin(std::uint64_t nanoseconds, cudaStream_t stream) {
  spin<<<1, 1, 0, stream>>>(nanoseconds);
  KWB_CHECK_LAUNCH("spin");
}

}  // namespace kwb::testing
