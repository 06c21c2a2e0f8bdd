#include "kernels/elementwise/elementwisekernels.cuh"

namespace kwb {

ElementwiseKernel findGeluTanh(const ElementwiseLaunch& launch) {
  return elementwise::findSameType<elementwise::GeluTanh>(launch);
}

}  // namespace kwb
