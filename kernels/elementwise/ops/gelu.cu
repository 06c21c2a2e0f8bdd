#include "kernels/elementwise/elementwisekernels.cuh"

namespace kwb {

ElementwiseKernel findGelu(const ElementwiseLaunch& launch) {
  return elementwise::findSameType<elementwise::Gelu>(launch);
}

}  // namespace kwb
