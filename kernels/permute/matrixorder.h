#pragma once

// Batched transposes whose destination also reorders the batch: (1, 0, 3, 2) transposes each
// matrix of the last two dimensions and swaps the first two, so destination matrix m comes from
// a source matrix elsewhere. A kernel that moves one destination matrix at a time finds it here.
#include <cstdint>

#include "kernels/hostdevice.h"
#include "kernels/permute/permuteplan.h"
#include "kernels/permute/strideddims.h"

namespace kwb::permute {

inline constexpr int kMaxBatchDims = kMaxDims - 2;

// The destination's batch dimensions, innermost first: each one's size and its stride in source
// matrices. Rank 0: the matrices keep their order.
template <typename Index>
struct MatrixOrder : StridedDims<Index, kMaxBatchDims> {
  // The source matrix of destination matrix m.
  KWB_HOST_DEVICE Index source(Index m) const { return this->rank == 0 ? m : this->offsetOf(m); }

  template <typename Other>
  MatrixOrder<Other> as() const {
    MatrixOrder<Other> o;
    o.rank = this->rank;
    for (int k = 0; k < this->rank; ++k) {
      o.size[k] = DividerOf<Other>(static_cast<Other>(this->size[k].divisor));
      o.stride[k] = static_cast<Other>(this->stride[k]);
    }
    return o;
  }
};

#ifdef __CUDACC__
// The order in the block's shared memory, for every thread of the block to call. A kernel
// parameter indexed by a dimension known only at run time is copied whole into each thread's
// local memory before the first load: 104 bytes a thread, more than some blocks move in a span
// (8 warps of narrow cells moving 12 KiB wrote 26 KiB). A block's copy costs one thread.
template <typename Index>
__device__ const MatrixOrder<Index>& sharedCopyOf(const MatrixOrder<Index>& order) {
  __shared__ MatrixOrder<Index> copy;
  if (threadIdx.x == 0) copy = order;
  __syncthreads();
  return copy;
}
#endif

}  // namespace kwb::permute
