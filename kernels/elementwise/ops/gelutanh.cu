#include "kernels/elementwise/elementwisekernels.cuh"

namespace kwb {

void launchGeluTanh(const ElementwiseLaunch& launch, cudaStream_t stream) {
  elementwise::launchSameType<elementwise::GeluTanh>(launch, stream);
}

}  // namespace kwb
