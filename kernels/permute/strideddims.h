#pragma once

// Dimensions walked by one linear index, innermost first, each with its own stride in memory laid
// out otherwise: a tile's rows and columns, a batch's matrices. The index's digits in the sizes'
// mixed radix, times the strides, give the offset.
#include <cstdint>

#include "kernels/hostdevice.h"
#include "kernels/permute/fastdivider.h"

namespace kwb::permute {

// index / size for the non-negative indices offsets take: unsigned where 32 bits hold them, a
// division of about half the instructions of a signed one.
template <typename Index>
KWB_HOST_DEVICE Index quotientOf(Index index, Index size) {
  if constexpr (sizeof(Index) == 4)
    return static_cast<Index>(static_cast<std::uint32_t>(index) / static_cast<std::uint32_t>(size));
  else
    return index / size;
}

// index / the divider's divisor, by its multiplier where 32 bits hold the index.
template <typename Index>
KWB_HOST_DEVICE Index quotientOf(Index index, const DividerOf<Index>& by) {
  if constexpr (sizeof(Index) == 4)
    return static_cast<Index>(by.divide(static_cast<std::uint32_t>(index)));
  else
    return by.divide(index);
}

// Strides and offsets may be wider than the index: a 32-bit index over a tensor past 2^31.
template <typename Index, int MaxRank, typename Stride = Index>
struct StridedDims {
  int rank = 0;
  DividerOf<Index> size[MaxRank];  // each a divisor, and the multiplier that divides by it
  Stride stride[MaxRank] = {};

  // For an index below the sizes' product: the outermost digit is what the others leave, so it
  // takes no division.
  KWB_HOST_DEVICE Stride offsetOf(Index index) const { return offsetsOf(index, nullptr).own; }

  // The index's offset under these strides and under `otherStrides` (the same sizes laid out
  // elsewhere), from one chain of divisions.
  struct Offsets {
    Stride own, other;
  };
  KWB_HOST_DEVICE Offsets offsetsOf(Index index, const Stride* otherStrides) const {
    Offsets o{0, 0};
    for (int k = 0; k < rank; ++k) {
      const Index q = k + 1 < rank ? quotientOf(index, size[k]) : Index{0};
      const Stride digit = index - q * static_cast<Index>(size[k].divisor);
      o.own += digit * stride[k];
      if (otherStrides) o.other += digit * otherStrides[k];
      index = q;
    }
    return o;
  }
};

}  // namespace kwb::permute
