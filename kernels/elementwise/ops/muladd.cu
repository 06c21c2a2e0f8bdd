#include "kernels/elementwise/elementwisekernels.cuh"

namespace kwb {

ElementwiseKernel findMulAdd(const ElementwiseLaunch& launch) {
  return elementwise::findSameType<elementwise::MulAdd>(launch);
}

}  // namespace kwb
