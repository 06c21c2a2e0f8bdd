// The generic permute kernels: each thread takes destination offsets and finds the source by
// dividing the offset by the destination strides, one dimension at a time (OneFlow's
// NdIndexOffsetHelper). Fewer dimensions after simplification mean fewer divisions, 32-bit
// indices cheaper ones (by multiplication), wider units fewer accesses, and several moves a
// thread more of them in flight.
#include <cstdint>

#include "core/error.h"
#include "kernels/cudacheck.h"
#include "kernels/permute/fastdivider.h"
#include "kernels/permute/permutelaunch.h"
#include "kernels/units.cuh"

namespace kwb::permute {
namespace {

// The destination strides, and for each destination dimension the stride of the source
// dimension it comes from.
template <typename Index, int Rank>
struct Strides {
  Index dst[Rank];
  Index src[Rank];
};

// For the permutation's own rank, at most Capacity; entries past it stay zero.
template <typename Index, int Capacity>
Strides<Index, Capacity> stridesOf(const Permutation& p) {
  const int rank = static_cast<int>(p.shape.size());
  std::int64_t source[kMaxDims];
  std::int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    source[d] = stride;
    stride *= p.shape[static_cast<std::size_t>(d)];
  }
  Strides<Index, Capacity> s{};
  stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    const int axis = p.perm[static_cast<std::size_t>(d)];
    s.dst[d] = static_cast<Index>(stride);
    s.src[d] = static_cast<Index>(source[axis]);
    stride *= p.shape[static_cast<std::size_t>(axis)];
  }
  return s;
}

// The strided walk's strides: the destination's as dividers, the source's as they are.
template <typename Index, int Rank>
struct Walk {
  Divider<Index> dst[Rank];
  Index src[Rank];
};

template <typename Index, int Rank>
Walk<Index, Rank> walkOf(const Permutation& p) {
  const auto s = stridesOf<std::int64_t, Rank>(p);
  Walk<Index, Rank> w;
  for (int d = 0; d < Rank; ++d) {
    w.dst[d] = Divider<Index>(static_cast<Index>(s.dst[d]));
    w.src[d] = static_cast<Index>(s.src[d]);
  }
  return w;
}

constexpr int kUnroll = kStridedUnroll;

// Where destination unit `i` lies in the source but for its place along the destination's
// innermost dimension, which `i` is left holding: its offset divided by every outer destination
// stride.
template <int Rank, typename Index>
__device__ __forceinline__ Index outerSourceOffset(const Walk<Index, Rank>& w, Index& i) {
  Index from = 0;
#pragma unroll
  for (int d = 0; d < Rank - 1; ++d) {
    const Index q = w.dst[d].divide(i);
    i -= q * w.dst[d].divisor;
    from += q * w.src[d];
  }
  return from;
}

// Where destination unit `i` lies in the source.
template <int Rank, typename Index>
__device__ __forceinline__ Index sourceOffset(const Walk<Index, Rank>& w, Index i) {
  const Index from = outerSourceOffset(w, i);
  return from + i * w.src[Rank - 1];
}

// Each thread loads Moves units, a block apart, before it stores any.
template <int Rank, typename T, typename Index, int Moves>
__global__ void stridedPermuteKernel(const T* __restrict__ src, T* __restrict__ dst,
                                     Walk<Index, Rank> w, Index count) {
  const Index step = static_cast<Index>(gridDim.x) * blockDim.x * Moves;
  for (Index base = static_cast<Index>(blockIdx.x) * blockDim.x * Moves + threadIdx.x; base < count;
       base += step) {
    T v[Moves];
#pragma unroll
    for (int u = 0; u < Moves; ++u) {
      const Index i = base + u * blockDim.x;
      if (i >= count) break;
      v[u] = src[sourceOffset(w, i)];
    }
#pragma unroll
    for (int u = 0; u < Moves; ++u) {
      const Index i = base + u * blockDim.x;
      if (i < count) dst[i] = v[u];
    }
  }
}

// One warp's stretch of the row walk, loaded into `v`: each lane finds where one destination row
// (a run along the destination's innermost dimension, w.dst[Rank - 2] units long) starts in the
// source, once, and each unit takes its row's start from that lane by a shuffle. `Whole` where
// every unit of it lies before `count`, so that no unit is checked.
template <bool Whole, int Rank, typename T, typename Index>
__device__ __forceinline__ void loadRowStretch(const T* __restrict__ src,
                                               const Walk<Index, Rank>& w, Index first,
                                               Index lastRow, Index lane, Index count,
                                               T (&v)[kUnroll]) {
  const Divider<Index> row = w.dst[Rank - 2];
  const Index firstRow = row.divide(first);
  // A row starts at the innermost dimension's first unit: no term of its own (sourceOffset's
  // multiply-add there cost 10 % on (189, 101, 2, 100, 7, 5) f16, H100).
  Index rowStart = (firstRow + lane < lastRow ? firstRow + lane : lastRow) * row.divisor;
  const Index start = outerSourceOffset(w, rowStart);
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) {
    const Index i = first + lane + u * 32;
    const Index r = row.divide(i);
    const Index from = __shfl_sync(0xffffffffu, start, static_cast<int>((r - firstRow) % 32));
    if (Whole || i < count) v[u] = src[from + (i - r * row.divisor) * w.src[Rank - 1]];
  }
}

// The destination's units of a stretch are consecutive: the stores take offsets from one address.
template <bool Whole, typename T, typename Index>
__device__ __forceinline__ void storeRowStretch(T* __restrict__ dst, Index first, Index lane,
                                                Index count, const T (&v)[kUnroll]) {
  T* out = dst + (first + lane);
#pragma unroll
  for (int u = 0; u < kUnroll; ++u)
    if (Whole || first + lane + u * 32 < count) out[u * 32] = v[u];
}

// The strided walk with a division and a shuffle a unit instead of a division per dimension. A
// warp moves Stretches stretches of 32 x kUnroll consecutive units, lane after lane, each
// spanning 32 rows at most (kMinWalkRow); it loads them all before it stores any.
template <int Rank, typename T, typename Index, int Stretches>
__global__ void rowWalkKernel(const T* __restrict__ src, T* __restrict__ dst, Walk<Index, Rank> w,
                              Index count) {
  constexpr Index stretch = 32 * kUnroll;
  constexpr Index span = stretch * Stretches;
  const Index lane = threadIdx.x % 32;
  const Index lastRow = w.dst[Rank - 2].divide(count - 1);
  const Index step = static_cast<Index>(gridDim.x) * (blockDim.x / 32) * span;
  for (Index first = (static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x) / 32 * span;
       first < count; first += step) {
    T v[Stretches][kUnroll];
    if (count - first >= span) {
#pragma unroll
      for (int s = 0; s < Stretches; ++s)
        loadRowStretch<true>(src, w, first + s * stretch, lastRow, lane, count, v[s]);
#pragma unroll
      for (int s = 0; s < Stretches; ++s)
        storeRowStretch<true>(dst, first + s * stretch, lane, count, v[s]);
    } else {
#pragma unroll
      for (int s = 0; s < Stretches; ++s)
        if (first + s * stretch < count)
          loadRowStretch<false>(src, w, first + s * stretch, lastRow, lane, count, v[s]);
#pragma unroll
      for (int s = 0; s < Stretches; ++s)
        if (first + s * stretch < count)
          storeRowStretch<false>(dst, first + s * stretch, lane, count, v[s]);
    }
  }
}

// The first version anyone writes: the rank known only at run time, 64-bit arithmetic over every
// dimension the user gave, one element per thread.
template <typename T>
__global__ void naivePermuteKernel(const T* __restrict__ src, T* __restrict__ dst,
                                   Strides<std::int64_t, kMaxDims> s, int rank,
                                   std::int64_t count) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  std::int64_t rest = i;
  std::int64_t from = 0;
  for (int d = 0; d < rank; ++d) {
    const std::int64_t q = rest / s.dst[d];
    rest -= q * s.dst[d];
    from += q * s.src[d];
  }
  dst[i] = src[from];
}

template <typename T>
void launchNaive(const PermuteLaunch& l, cudaStream_t stream) {
  naivePermuteKernel<T>
      <<<l.grid, l.block, 0, stream>>>(static_cast<const T*>(l.src), static_cast<T*>(l.dst),
                                       stridesOf<std::int64_t, kMaxDims>(l.plan),
                                       static_cast<int>(l.plan.shape.size()), l.plan.elements());
  KWB_CHECK_LAUNCH("naivePermuteKernel");
}

// The strided walk by units, or by rows where the launch says so (a row needs 2 dimensions), as
// deep as `Deep` says.
template <int Rank, typename T, typename Index, bool Deep>
void launchWalk(const PermuteLaunch& l, cudaStream_t stream) {
  const bool rows = Rank >= 2 && l.walk == PermuteWalk::Rows;
  const auto kernel = [&] {
    if constexpr (Rank >= 2)
      if (rows) return rowWalkKernel<Rank, T, Index, rowWalkStretches(sizeof(T), Deep)>;
    return stridedPermuteKernel<Rank, T, Index, unitWalkUnroll(sizeof(T), Deep)>;
  }();
  kernel<<<l.grid, l.block, 0, stream>>>(static_cast<const T*>(l.src), static_cast<T*>(l.dst),
                                         walkOf<Index, Rank>(l.plan),
                                         static_cast<Index>(l.plan.elements()));
  if (rows)
    KWB_CHECK_LAUNCH("rowWalkKernel");
  else
    KWB_CHECK_LAUNCH("stridedPermuteKernel");
}

// Unsigned: the grid-stride loop's last step may pass 2^31 without wrapping.
template <int Rank, typename T>
void launchStrided(const PermuteLaunch& l, cudaStream_t stream) {
  if (!l.index32) return launchWalk<Rank, T, std::uint64_t, false>(l, stream);
  if (l.deep) return launchWalk<Rank, T, std::uint32_t, true>(l, stream);
  launchWalk<Rank, T, std::uint32_t, false>(l, stream);
}

template <typename T, int Rank = 1>
void dispatchRank(const PermuteLaunch& l, cudaStream_t stream) {
  if constexpr (Rank <= kMaxDims) {
    if (static_cast<int>(l.plan.shape.size()) == Rank) return launchStrided<Rank, T>(l, stream);
    return dispatchRank<T, Rank + 1>(l, stream);
  } else {
    throw Error(ErrorKind::Internal,
                "permute: no kernel for " + std::to_string(l.plan.shape.size()) + " dimensions");
  }
}

template <typename T>
void launchUnit(const PermuteLaunch& l, cudaStream_t stream) {
  if (l.walk == PermuteWalk::Naive) return launchNaive<T>(l, stream);
  dispatchRank<T>(l, stream);
}

}  // namespace

void launchPermute(const PermuteLaunch& l, cudaStream_t stream) {
  withUnit(l.unitBytes, "permute", [&](auto unit) { launchUnit<decltype(unit)>(l, stream); });
}

}  // namespace kwb::permute
