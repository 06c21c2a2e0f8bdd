#include "kernels/elementwise/elementwiselaunch.h"

#include "core/error.h"

namespace kwb {

ElementwiseKernel findElementwiseKernel(const ElementwiseLaunch& launch) {
  switch (launch.op) {
    case ElementwiseOp::Relu: return findRelu(launch);
    case ElementwiseOp::Gelu: return findGelu(launch);
    case ElementwiseOp::GeluTanh: return findGeluTanh(launch);
    case ElementwiseOp::Silu: return findSilu(launch);
    case ElementwiseOp::Mul: return findMul(launch);
    case ElementwiseOp::MulAdd: return findMulAdd(launch);
    case ElementwiseOp::Cast: return findCast(launch);
  }
  throw Error(ErrorKind::Internal, "elementwise: no such op");
}

}  // namespace kwb
