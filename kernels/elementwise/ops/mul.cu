#include "kernels/elementwise/elementwisekernels.cuh"

namespace kwb {

ElementwiseKernel findMul(const ElementwiseLaunch& launch) {
  return elementwise::findSameType<elementwise::Mul>(launch);
}

}  // namespace kwb
