#include "kernels/elementwise/elementwisekernels.cuh"

namespace kwb {

void launchRelu(const ElementwiseLaunch& launch, cudaStream_t stream) {
  elementwise::launchSameType<elementwise::Relu>(launch, stream);
}

}  // namespace kwb
