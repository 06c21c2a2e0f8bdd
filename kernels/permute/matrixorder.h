#pragma once

// Batched transposes whose destination also reorders the batch: (1, 0, 3, 2) transposes each
// matrix of the last two dimensions and swaps the first two, so destination matrix m comes from
// a source matrix elsewhere. A kernel that moves one destination matrix at a time finds it here.
#include <cstdint>

#include "kernels/hostdevice.h"
#include "kernels/permute/permuteplan.h"

namespace kwb::permute {

inline constexpr int kMaxBatchDims = kMaxDims - 2;

// The destination's batch dimensions, innermost first: each one's size and its stride in source
// matrices. Rank 0: the matrices keep their order.
template <typename Index>
struct MatrixOrder {
  int rank = 0;
  Index size[kMaxBatchDims] = {};
  Index stride[kMaxBatchDims] = {};

  // The source matrix of destination matrix m.
  KWB_HOST_DEVICE Index source(Index m) const {
    if (rank == 0) return m;
    Index at = 0;
    for (int k = 0; k < rank; ++k) {
      const Index q = m / size[k];
      at += (m - q * size[k]) * stride[k];
      m = q;
    }
    return at;
  }

  template <typename Other>
  MatrixOrder<Other> as() const {
    MatrixOrder<Other> o;
    o.rank = rank;
    for (int k = 0; k < rank; ++k) {
      o.size[k] = static_cast<Other>(size[k]);
      o.stride[k] = static_cast<Other>(stride[k]);
    }
    return o;
  }
};

}  // namespace kwb::permute
