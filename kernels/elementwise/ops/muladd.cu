#include "kernels/elementwise/elementwisekernels.cuh"

namespace kwb {

void launchMulAdd(const ElementwiseLaunch& launch, cudaStream_t stream) {
  elementwise::launchSameType<elementwise::MulAdd>(launch, stream);
}

}  // namespace kwb
