#include "kernels/elementwise/elementwisekernels.cuh"

namespace kwb {

void launchMul(const ElementwiseLaunch& launch, cudaStream_t stream) {
  elementwise::launchSameType<elementwise::Mul>(launch, stream);
}

}  // namespace kwb
