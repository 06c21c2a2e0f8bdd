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

// Where a chunk lies: `planar` is its first element in plane 0, `interleaved` the first of its
// interleaved run, `width` its elements per plane (a whole number of vectors).
template <typename Index>
struct Chunk {
  Index planar;
  Index interleaved;
  Index width;
};

template <typename Index>
__device__ __forceinline__ Chunk<Index> chunkAt(Index c, Index narrow, Index wide, Index chunkWidth,
                                                Index chunksPerMatrix) {
  const Index matrix = c / chunksPerMatrix;
  const Index start = (c - matrix * chunksPerMatrix) * chunkWidth;
  const Index base = matrix * narrow * wide;
  return {base + start, base + start * narrow, min(chunkWidth, wide - start)};
}

template <typename Vec, bool Swizzled, typename Index>
__device__ __forceinline__ Index slotOf(Index v, int shift) {
  return Swizzled ? swizzledVector(v, static_cast<Index>(128 / sizeof(Vec)), shift) : v;
}

// Where element q of the interleaved chunk lies in shared memory, in elements.
template <typename Vec, int K, bool Swizzled, typename Index>
__device__ __forceinline__ Index elementSlotOf(Index q, int shift) {
  return Swizzled ? swizzledElement(q, static_cast<Index>(K), static_cast<Index>(128 / sizeof(Vec)),
                                    shift)
                  : q;
}

// Vector i of a chunk's planar side: plane i / perPlane, vectors i % perPlane into its run.
template <typename Index>
struct PlaneSpot {
  Index plane;
  Index column;
};

template <typename Index>
__device__ __forceinline__ PlaneSpot<Index> planeSpot(Index i, Index perPlane) {
  const Index plane = i / perPlane;
  return {plane, i - plane * perPlane};
}

// Planes to interleaved (PlanarSource) or back. Loads go through registers kInFlight at a time;
// the planar side scatters or gathers its K elements a vector in the interleaved tile.
template <typename T, typename Vec, bool PlanarSource, bool Swizzled, typename Index>
__global__ void narrowTransposeKernel(const Vec* __restrict__ src, Vec* __restrict__ dst,
                                      Index narrow, Index wide, Index chunkWidth,
                                      Index chunksPerMatrix, Index chunks, int swizzleShift) {
  using L = Lanes<T, Vec>;
  constexpr int K = L::kCount;
  extern __shared__ uint4 sharedChunk[];
  T* tile = reinterpret_cast<T*>(sharedChunk);  // [width][narrow]
  Vec* tileVectors = reinterpret_cast<Vec*>(sharedChunk);
  for (Index c = blockIdx.x; c < chunks; c += gridDim.x) {
    const Chunk<Index> chunk = chunkAt(c, narrow, wide, chunkWidth, chunksPerMatrix);
    const Index perPlane = chunk.width / K;
    const Index vectors = perPlane * narrow;
    const auto planar = [&](Index i) {
      const PlaneSpot<Index> s = planeSpot(i, perPlane);
      return (chunk.planar + s.plane * wide) / K + s.column;
    };
    const auto interleaved = [&](Index i) { return chunk.interleaved / K + i; };
    for (Index i0 = threadIdx.x; i0 < vectors; i0 += kInFlight * blockDim.x) {
      L v[kInFlight];
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) {
        const Index i = i0 + u * blockDim.x;
        if (i < vectors) v[u].vector = src[PlanarSource ? planar(i) : interleaved(i)];
      }
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) {
        const Index i = i0 + u * blockDim.x;
        if (i >= vectors) break;
        if constexpr (PlanarSource) {
          const PlaneSpot<Index> s = planeSpot(i, perPlane);
#pragma unroll
          for (int e = 0; e < K; ++e) {
            const Index q = (s.column * K + e) * narrow + s.plane;
            tile[elementSlotOf<Vec, K, Swizzled>(q, swizzleShift)] = v[u].element[e];
          }
        } else {
          tileVectors[slotOf<Vec, Swizzled>(i, swizzleShift)] = v[u].vector;
        }
      }
    }
    __syncthreads();
    for (Index i = threadIdx.x; i < vectors; i += blockDim.x) {
      if constexpr (PlanarSource) {
        dst[interleaved(i)] = tileVectors[slotOf<Vec, Swizzled>(i, swizzleShift)];
      } else {
        const PlaneSpot<Index> s = planeSpot(i, perPlane);
        L out;
#pragma unroll
        for (int e = 0; e < K; ++e) {
          const Index q = (s.column * K + e) * narrow + s.plane;
          out.element[e] = tile[elementSlotOf<Vec, K, Swizzled>(q, swizzleShift)];
        }
        dst[planar(i)] = out.vector;
      }
    }
    __syncthreads();
  }
}

template <typename T, typename Vec, typename Index>
void launchTyped(const NarrowLaunch& l, cudaStream_t stream) {
  const bool swizzled = l.swizzled;
  const auto kernel = l.planarSource ? swizzled ? narrowTransposeKernel<T, Vec, true, true, Index>
                                                : narrowTransposeKernel<T, Vec, true, false, Index>
                      : swizzled ? narrowTransposeKernel<T, Vec, false, true, Index>
                                     : narrowTransposeKernel<T, Vec, false, false, Index>;
  const std::int64_t chunkWidth = l.chunkWidth();
  kernel<<<l.grid, l.block, static_cast<std::size_t>(l.sharedBytes()), stream>>>(
      static_cast<const Vec*>(l.src), static_cast<Vec*>(l.dst), static_cast<Index>(l.narrow),
      static_cast<Index>(l.wide), static_cast<Index>(chunkWidth),
      static_cast<Index>((l.wide + chunkWidth - 1) / chunkWidth), static_cast<Index>(l.chunks()),
      l.swizzleShift());
  KWB_CHECK_LAUNCH("narrowTransposeKernel");
}

template <typename Index>
void launchIndexed(const NarrowLaunch& l, cudaStream_t stream) {
  withUnit<8>(l.elementBytes, "narrow transpose", [&](auto element) {
    withUnit(l.vectorBytes, "narrow transpose", [&](auto vector) {
      using T = decltype(element);
      using Vec = decltype(vector);
      if constexpr (sizeof(Vec) >= sizeof(T)) launchTyped<T, Vec, Index>(l, stream);
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

void launchNarrowTranspose(const NarrowLaunch& l, cudaStream_t stream) {
  if (l.vectorBytes < l.elementBytes)
    throw Error(ErrorKind::Internal, "narrow transpose: vectors narrower than an element");
  return l.index32 ? launchIndexed<std::int32_t>(l, stream)
                   : launchIndexed<std::int64_t>(l, stream);
}

}  // namespace kwb::permute
