#include "kernels/elementwise/elementwiselaunch.h"

namespace kwb {

void launchElementwise(const ElementwiseLaunch& launch, cudaStream_t stream) {
  switch (launch.op) {
    case ElementwiseOp::Relu: return launchRelu(launch, stream);
    case ElementwiseOp::Gelu: return launchGelu(launch, stream);
    case ElementwiseOp::GeluTanh: return launchGeluTanh(launch, stream);
    case ElementwiseOp::Silu: return launchSilu(launch, stream);
    case ElementwiseOp::Mul: return launchMul(launch, stream);
    case ElementwiseOp::MulAdd: return launchMulAdd(launch, stream);
    case ElementwiseOp::Cast: return launchCast(launch, stream);
  }
}

}  // namespace kwb
