#include "kernels/elementwise/elementwisekernels.cuh"

namespace kwb {

void launchSilu(const ElementwiseLaunch& launch, cudaStream_t stream) {
  elementwise::launchSameType<elementwise::Silu>(launch, stream);
}

}  // namespace kwb
