#pragma once

// Dimensions walked by one linear index, innermost first, each with its own stride in memory laid
// out otherwise: a tile's rows and columns, a batch's matrices. The index's digits in the sizes'
// mixed radix, times the strides, give the offset.
#include "kernels/hostdevice.h"

namespace kwb::permute {

template <typename Index, int MaxRank>
struct StridedDims {
  int rank = 0;
  Index size[MaxRank] = {};
  Index stride[MaxRank] = {};

  KWB_HOST_DEVICE Index offsetOf(Index index) const {
    Index offset = 0;
    for (int k = 0; k < rank; ++k) {
      const Index q = index / size[k];
      offset += (index - q * size[k]) * stride[k];
      index = q;
    }
    return offset;
  }
};

}  // namespace kwb::permute
