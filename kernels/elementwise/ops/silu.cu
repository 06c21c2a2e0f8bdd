#include "kernels/elementwise/elementwisekernels.cuh"

namespace kwb {

ElementwiseKernel findSilu(const ElementwiseLaunch& launch) {
  return elementwise::findSameType<elementwise::Silu>(launch);
}

}  // namespace kwb
