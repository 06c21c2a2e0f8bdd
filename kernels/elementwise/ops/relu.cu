#include "kernels/elementwise/elementwisekernels.cuh"

namespace kwb {

ElementwiseKernel findRelu(const ElementwiseLaunch& launch) {
  return elementwise::findSameType<elementwise::Relu>(launch);
}

}  // namespace kwb
