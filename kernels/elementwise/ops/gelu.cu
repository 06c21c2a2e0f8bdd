#include "kernels/elementwise/elementwisekernels.cuh"

namespace kwb {

void launchGelu(const ElementwiseLaunch& launch, cudaStream_t stream) {
  elementwise::launchSameType<elementwise::Gelu>(launch, stream);
}

}  // namespace kwb
