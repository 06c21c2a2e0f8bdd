// Narrow transposes: a block moves a chunk of every plane and the one contiguous interleaved run
// they make, both with coalesced vector accesses. Shared memory holds the chunk interleaved, so
// the interleaved side moves whole vectors and the planar side gathers or scatters elements.
// Where the planar side's lanes, a vector's elements times narrow apart, would meet in few banks
// (8 or 24 planes of 16-byte vectors: all in one), the vectors are swizzled within each 128-byte
// row of shared memory (NarrowLaunch::swizzlePays, swizzledVector).
#include <algorithm>
#include <cstdint>
#include <set>

#include "core/error.h"
#include "kernels/cudacheck.h"
#include "kernels/permute/narrowtranspose.h"
#include "kernels/permute/strideddims.h"
#include "kernels/units.cuh"

namespace kwb::permute {
namespace {

constexpr int kInFlight = NarrowLaunch::kVectorsPerThread;

template <typename T, typename Vec>
union Lanes {
  static constexpr int kCount = sizeof(Vec) / sizeof(T);
  Vec vector;
  T element[kCount];
};

// Where a chunk lies, in elements from the vectors holding each tensor's first element: `planar`
// its first element in plane 0, `interleaved` the first of its interleaved run, `width` its
// elements per plane (a whole number of vectors but in a plane's last chunk).
template <typename Index>
struct Chunk {
  Index planar;
  Index interleaved;
  Index width;
};

// Chunks go in the destination's order of matrices; where they are Reordered, `order` gives each
// one's source matrix.
template <bool PlanarSource, bool Reordered, typename Index>
__device__ __forceinline__ Chunk<Index> chunkAt(Index c, Index narrow, Index wide, Index chunkWidth,
                                                Index chunksPerMatrix,
                                                const MatrixOrder<Index>& order, int planarHead,
                                                int interleavedHead) {
  const Index matrix = quotientOf(c, chunksPerMatrix);
  const Index start = (c - matrix * chunksPerMatrix) * chunkWidth;
  const Index dstBase = matrix * narrow * wide;
  const Index srcBase = (Reordered ? order.source(matrix) : matrix) * narrow * wide;
  const Index planarBase = PlanarSource ? srcBase : dstBase;
  const Index interleavedBase = PlanarSource ? dstBase : srcBase;
  return {planarBase + start + planarHead, interleavedBase + start * narrow + interleavedHead,
          min(chunkWidth, wide - start)};
}

template <typename Vec, bool Swizzled, typename Index>
__device__ __forceinline__ Index slotOf(Index v, int shift) {
  return Swizzled ? swizzledVector(v, static_cast<Index>(128 / sizeof(Vec)), shift) : v;
}

// Where element q of the chunk's shared vectors lies in shared memory, in elements.
template <typename Vec, int K, bool Swizzled, typename Index>
__device__ __forceinline__ Index elementSlotOf(Index q, int shift) {
  return Swizzled ? swizzledElement(q, static_cast<Index>(K), static_cast<Index>(128 / sizeof(Vec)),
                                    shift)
                  : q;
}

// Source vector `at`, whose elements from `end` on (in elements from the source's first vector)
// lie past the tensor, and perhaps past its allocation: those are not read, the rest one at a
// time, where the vector holds the tensor's end.
template <typename T, typename Vec, typename Index>
__device__ __forceinline__ Vec loadVector(const Vec* src, Index at, Index end) {
  using L = Lanes<T, Vec>;
  if (at < end / L::kCount) return src[at];
  L v;
  v.vector = Vec{};
  const T* elements = reinterpret_cast<const T*>(src + at);
#pragma unroll
  for (int e = 0; e < L::kCount; ++e)
    if (e < end - at * L::kCount) v.element[e] = elements[e];
  return v.vector;
}

// Vector i of a chunk's planar side: its plane, its place in the planar tensor, and the plane's
// column its first element holds (negative where the vector starts before the plane's run).
template <typename Index>
struct PlaneVector {
  Index plane;
  Index at;
  Index column;
};

template <int K, typename Index>
__device__ __forceinline__ PlaneVector<Index> planeVector(Index i, Index perPlane, Index first,
                                                          Index wide) {
  const Index plane = quotientOf(i, perPlane), j = i - plane * perPlane;
  const Index start = first + plane * wide;
  return {plane, start / K + j, j * K - start % K};
}

// Planes to interleaved (PlanarSource) or back, in vectors from vector boundaries of both tensors.
// Shifted: a plane's run or the interleaved run may start or end inside a vector, and takes that
// vector whole on loads and in part on stores (perPlane counts a vector more where a plane's run
// may start off one); else every run is whole vectors and no access is checked. Shared memory
// holds the interleaved run `lead` elements into its first vector, as the destination or source
// holds it, so the interleaved side moves whole vectors; the planar side scatters or gathers its
// K elements a vector there. Loads go through registers kInFlight at a time.
template <typename T, typename Vec, bool PlanarSource, bool Swizzled, bool Shifted, bool Reordered,
          typename Index>
__global__ void narrowTransposeKernel(const Vec* __restrict__ src, int srcHead,
                                      Vec* __restrict__ dst, int dstHead, Index narrow, Index wide,
                                      Index chunkWidth, Index chunksPerMatrix, Index chunks,
                                      MatrixOrder<Index> order, Index srcEnd, int planeSlack,
                                      int swizzleShift) {
  using L = Lanes<T, Vec>;
  constexpr int K = L::kCount;
  extern __shared__ uint4 sharedChunk[];
  T* tile = reinterpret_cast<T*>(sharedChunk);
  Vec* tileVectors = reinterpret_cast<Vec*>(sharedChunk);
  T* dstElements = reinterpret_cast<T*>(dst);
  const int planarHead = PlanarSource ? srcHead : dstHead;
  const int interleavedHead = PlanarSource ? dstHead : srcHead;
  const MatrixOrder<Index>& sourceOrder = Reordered ? sharedCopyOf(order) : order;
  for (Index c = blockIdx.x; c < chunks; c += gridDim.x) {
    const Chunk<Index> chunk = chunkAt<PlanarSource, Reordered>(
        c, narrow, wide, chunkWidth, chunksPerMatrix, sourceOrder, planarHead, interleavedHead);
    const Index width = chunk.width, lead = Shifted ? chunk.interleaved % K : 0;
    const Index run = width * narrow, firstVector = chunk.interleaved / K;
    const Index interleavedVectors = (lead + run + K - 1) / K;
    const Index perPlane = (width + planeSlack + K - 1) / K;
    const Index planarVectors = perPlane * narrow;
    const auto spot = [&](Index i) { return planeVector<K>(i, perPlane, chunk.planar, wide); };
    const auto slot = [&](Index column, Index plane) {
      return elementSlotOf<Vec, K, Swizzled>(column * narrow + plane + lead, swizzleShift);
    };
    if constexpr (PlanarSource) {
      for (Index i0 = threadIdx.x; i0 < planarVectors; i0 += kInFlight * blockDim.x) {
        L v[kInFlight];
#pragma unroll
        for (int u = 0; u < kInFlight; ++u) {
          const Index i = i0 + u * blockDim.x;
          if (i >= planarVectors) break;
          const PlaneVector<Index> p = spot(i);
          if (!Shifted)
            v[u].vector = src[p.at];
          else if (p.column < width)
            v[u].vector = loadVector<T>(src, p.at, srcEnd);
        }
        // Each vector's place again rather than kept: registers for more blocks an SM.
#pragma unroll
        for (int u = 0; u < kInFlight; ++u) {
          const Index i = i0 + u * blockDim.x;
          if (i >= planarVectors) break;
          const PlaneVector<Index> p = spot(i);
          if (Shifted && p.column >= width) continue;
          const bool whole = !Shifted || (p.column >= 0 && p.column + K <= width);
#pragma unroll
          for (int e = 0; e < K; ++e) {
            const Index column = p.column + e;
            if (whole || (column >= 0 && column < width))
              tile[slot(column, p.plane)] = v[u].element[e];
          }
        }
      }
    } else {
      for (Index i0 = threadIdx.x; i0 < interleavedVectors; i0 += kInFlight * blockDim.x) {
        Vec v[kInFlight];
#pragma unroll
        for (int u = 0; u < kInFlight; ++u) {
          const Index i = i0 + u * blockDim.x;
          if (i < interleavedVectors)
            v[u] = Shifted ? loadVector<T>(src, firstVector + i, srcEnd) : src[firstVector + i];
        }
#pragma unroll
        for (int u = 0; u < kInFlight; ++u) {
          const Index i = i0 + u * blockDim.x;
          if (i < interleavedVectors) tileVectors[slotOf<Vec, Swizzled>(i, swizzleShift)] = v[u];
        }
      }
    }
    __syncthreads();
    if constexpr (PlanarSource) {
      for (Index i = threadIdx.x; i < interleavedVectors; i += blockDim.x) {
        L out;
        out.vector = tileVectors[slotOf<Vec, Swizzled>(i, swizzleShift)];
        const Index q0 = i * K;
        if (!Shifted || (q0 >= lead && q0 + K <= lead + run)) {
          dst[firstVector + i] = out.vector;
        } else {
#pragma unroll
          for (int e = 0; e < K; ++e)
            if (q0 + e >= lead && q0 + e < lead + run)
              dstElements[(firstVector + i) * K + e] = out.element[e];
        }
      }
    } else {
      for (Index i = threadIdx.x; i < planarVectors; i += blockDim.x) {
        const PlaneVector<Index> p = spot(i);
        if (Shifted && p.column >= width) continue;
        L out;
        if (!Shifted || (p.column >= 0 && p.column + K <= width)) {
#pragma unroll
          for (int e = 0; e < K; ++e) out.element[e] = tile[slot(p.column + e, p.plane)];
          dst[p.at] = out.vector;
        } else {
#pragma unroll
          for (int e = 0; e < K; ++e) {
            const Index column = p.column + e;
            if (column >= 0 && column < width)
              dstElements[p.at * K + e] = tile[slot(column, p.plane)];
          }
        }
      }
    }
    __syncthreads();
  }
}

// The vector holding a tensor's first element, `head` elements before it.
template <typename Vec, typename Void>
Vec* vectorStart(Void* p, int head, int elementBytes) {
  return reinterpret_cast<Vec*>(reinterpret_cast<std::uintptr_t>(p) -
                                static_cast<std::uintptr_t>(head) * elementBytes);
}

template <typename T, typename Vec, bool PlanarSource, bool Shifted, typename Index>
void launchTyped(const NarrowLaunch& l, cudaStream_t stream) {
  // A kernel of its own for a reordered batch: its source matrices' arithmetic would cost the
  // others registers.
  const auto kernel =
      l.order.rank > 0
          ? (l.swizzled ? narrowTransposeKernel<T, Vec, PlanarSource, true, Shifted, true, Index>
                        : narrowTransposeKernel<T, Vec, PlanarSource, false, Shifted, true, Index>)
          : (l.swizzled
                 ? narrowTransposeKernel<T, Vec, PlanarSource, true, Shifted, false, Index>
                 : narrowTransposeKernel<T, Vec, PlanarSource, false, Shifted, false, Index>);
  const std::int64_t chunkWidth = l.chunkWidth();
  kernel<<<l.grid, l.block, static_cast<std::size_t>(l.sharedBytes()), stream>>>(
      vectorStart<const Vec>(l.src, l.sourceHead, l.elementBytes), l.sourceHead,
      vectorStart<Vec>(l.dst, l.destinationHead, l.elementBytes), l.destinationHead,
      static_cast<Index>(l.narrow), static_cast<Index>(l.wide), static_cast<Index>(chunkWidth),
      static_cast<Index>((l.wide + chunkWidth - 1) / chunkWidth), static_cast<Index>(l.chunks()),
      l.order.as<Index>(), static_cast<Index>(l.sourceHead + l.batch * l.narrow * l.wide),
      l.planesShifted() ? static_cast<int>(l.elementsPerVector()) - 1 : 0, l.swizzleShift());
  KWB_CHECK_LAUNCH("narrowTransposeKernel");
}

template <typename Index>
void launchIndexed(const NarrowLaunch& l, cudaStream_t stream) {
  withUnit<8>(l.elementBytes, "narrow transpose", [&](auto element) {
    withUnit(l.vectorBytes, "narrow transpose", [&](auto vector) {
      using T = decltype(element);
      using Vec = decltype(vector);
      if constexpr (sizeof(Vec) >= sizeof(T)) {
        if (l.planarSource)
          l.shifted() ? launchTyped<T, Vec, true, true, Index>(l, stream)
                      : launchTyped<T, Vec, true, false, Index>(l, stream);
        else
          l.shifted() ? launchTyped<T, Vec, false, true, Index>(l, stream)
                      : launchTyped<T, Vec, false, false, Index>(l, stream);
      }
    });
  });
}

}  // namespace

int NarrowLaunch::bankWays(bool swizzle) const {
  // Lane L stores element 0 of its vector, column L * K of plane 0: element (L * K) * narrow of
  // the interleaved chunk; count the distinct 4-byte words each bank is asked for.
  const std::int64_t k = elementsPerVector(), perRow = 128 / vectorBytes;
  std::set<std::int64_t> words[32];
  for (std::int64_t lane = 0; lane < 32; ++lane) {
    std::int64_t q = lane * k * narrow;
    if (swizzle) q = swizzledElement(q, k, perRow, swizzleShift());
    const std::int64_t word = q * elementBytes / 4;
    words[word % 32].insert(word);
  }
  std::size_t ways = 1;
  for (const auto& bank : words) ways = std::max(ways, bank.size());
  return static_cast<int>(ways);
}

int narrowVectorBytes(std::int64_t wide, int elementBytes, std::int64_t sourceOffsetBytes,
                      int limit) {
  for (int size = 16; size > elementBytes; size /= 2)
    if (size <= limit && wide * elementBytes % size == 0 && sourceOffsetBytes % size == 0)
      return size;
  return elementBytes;
}

void launchNarrowTranspose(const NarrowLaunch& launch, cudaStream_t stream) {
  if (launch.cells) return launchNarrowCells(launch, stream);
  NarrowLaunch l = launch;
  if (l.vectorBytes < l.elementBytes)
    throw Error(ErrorKind::Internal, "narrow transpose: vectors narrower than an element");
  l.sourceHead = NarrowLaunch::headOf(l.src, l.vectorBytes, l.elementBytes);
  l.destinationHead = NarrowLaunch::headOf(l.dst, l.vectorBytes, l.elementBytes);
  return l.index32 ? launchIndexed<std::int32_t>(l, stream)
                   : launchIndexed<std::int64_t>(l, stream);
}

}  // namespace kwb::permute
