// The packed permute in words: where a tile's runs on both sides are whole words of 4, 8 or 16
// bytes, each thread loads whole source words into shared memory and gathers each destination
// word's elements from there. A word of E elements then costs two global accesses, a shared
// store and E shared loads, where single elements cost four accesses each; and since a word
// takes a register or a few, each thread keeps the words of several tiles loading at once. A
// tile of bytes holds only 4 KiB: in elements, with one tile ahead, packed tiles of bytes moved
// 1480, 866 and 617 GB/s with tiles of 4096, 2048 and 1024 ((127826, 3, 100, 7) with (3, 1, 0,
// 2), H100), bound by the bytes they kept in flight.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/error.h"
#include "kernels/cudacheck.h"
#include "kernels/permute/packedtile.cuh"
#include "kernels/permute/packedtranspose.h"

namespace kwb::permute {
namespace {

using namespace packed;
using Index = std::int32_t;

constexpr int kMaxBlock = 512;

// Position p's digits advanced by one position along the order, with carries, and its
// shared index (the tile lies unpadded in the source's order) kept up to date.
__device__ __forceinline__ void step(const Dims<Index>& d, int (&digit)[kMaxDims], int& shared) {
#pragma unroll
  for (int k = 0; k < kMaxDims; ++k)
    if (k < d.rank) {
      shared += d.sharedStride[k];
      if (++digit[k] < d.extent[k]) return;
      shared -= d.extent[k] * d.sharedStride[k];
      digit[k] = 0;
    }
}

__device__ __forceinline__ int splitDigitOf(const Dims<Index>& d, const int (&digit)[kMaxDims]) {
  int splitDigit = 0;
#pragma unroll
  for (int k = 0; k < kMaxDims; ++k)
    if (k == d.split) splitDigit = digit[k];
  return splitDigit;
}

// Word j of each side of a thread starts at position (threadIdx.x + j * blockDim.x) * E of that
// side's order. Bit j of the masks: the word is in the tile, and in a last chunk.
template <typename T, int W, int K>
struct Words {
  static constexpr int E = W / static_cast<int>(sizeof(T));
  Index srcAt[K], dstAt[K];
  int loadShared[K];    // byte address of each source word in shared memory
  int gatherAt[K * E];  // byte address of each destination word's elements
  unsigned loadTile = 0, loadLast = 0, storeTile = 0, storeLast = 0;

  __device__ __forceinline__ Words(const Args<Index>& a, bool swizzle) {
    const auto at = [&](int element) {
      return packedWordsAddress(element * static_cast<int>(sizeof(T)), W, swizzle);
    };
#pragma unroll
    for (int j = 0; j < K; ++j) {
      const int p = (static_cast<int>(threadIdx.x) + j * static_cast<int>(blockDim.x)) * E;
      const bool tile = p < a.volume;
      int digit[kMaxDims], shared;
      digitsOf(a.load, p, digit);
      place(a.load, digit, srcAt[j], shared);
      loadShared[j] = at(p);
      loadTile |= static_cast<unsigned>(tile) << j;
      loadLast |= static_cast<unsigned>(tile && splitDigitOf(a.load, digit) < a.lastHeld) << j;
      digitsOf(a.store, p, digit);
      place(a.store, digit, dstAt[j], shared);
      storeTile |= static_cast<unsigned>(tile) << j;
      storeLast |= static_cast<unsigned>(tile && splitDigitOf(a.store, digit) < a.lastHeld) << j;
#pragma unroll
      for (int i = 0; i < E; ++i) {
        gatherAt[j * E + i] = at(shared);
        if (i + 1 < E) step(a.store, digit, shared);
      }
    }
  }
};

template <typename V, int K, typename T>
__device__ __forceinline__ void loadWords(const T* __restrict__ src, Index base,
                                          const Index (&srcAt)[K], unsigned moving, V (&v)[K]) {
  const T* from = src + base;
#pragma unroll
  for (int j = 0; j < K; ++j)
    if (moving >> j & 1)
      v[j] = *reinterpret_cast<const V*>(from + static_cast<std::uint32_t>(srcAt[j]));
}

// Tiles whose words a thread holds in registers ahead of the one in shared memory: about 64
// bytes, at most 8 tiles, within 64 registers (two blocks of 512 an SM). Words of 4 bytes two a
// thread moved 1.11 to 1.13x as fast 8 tiles ahead as 4, and 1.35 to 1.43x as fast 4 ahead as
// single elements one ahead (H100).
template <typename V, int K>
constexpr int kAhead = std::clamp(64 / (K * static_cast<int>(sizeof(V))), 1, 8);

template <typename T, typename V, int K>
__device__ __forceinline__ void gatherAndStore(const Words<T, sizeof(V), K>& w,
                                               const unsigned char* shared, T* to,
                                               unsigned storing) {
  constexpr int E = sizeof(V) / sizeof(T);
#pragma unroll
  for (int j = 0; j < K; ++j)
    if (storing >> j & 1) {
      T e[E];
#pragma unroll
      for (int i = 0; i < E; ++i)
        e[i] = *reinterpret_cast<const T*>(shared + w.gatherAt[j * E + i]);
      V word;
      memcpy(&word, e, sizeof(V));
      *reinterpret_cast<V*>(to + static_cast<std::uint32_t>(w.dstAt[j])) = word;
    }
}

// Each block walks its tiles with the words of the next tiles loading: a tile goes into shared
// memory, the registers it left load the tile `ahead` further, and the tile is gathered and
// stored while those loads are in flight.
template <typename T, typename V, int K>
__global__ void __launch_bounds__(kMaxBlock)
    packedWordsKernel(const T* __restrict__ src, T* __restrict__ dst, const Args<Index> a,
                      bool swizzle) {
  constexpr int ahead = kAhead<V, K>;
  extern __shared__ __align__(16) unsigned char shared[];
  const Words<T, sizeof(V), K> w(a, swizzle);
  const Index grid = static_cast<Index>(gridDim.x);

  V v[ahead][K];
  Bases<Index> at[ahead];
#pragma unroll
  for (int d = 0; d < ahead; ++d) {
    const Index t = static_cast<Index>(blockIdx.x) + d * grid;
    if (t < a.tiles) {
      at[d] = basesOf(a, t);
      loadWords(src, at[d].src, w.srcAt, at[d].last ? w.loadLast : w.loadTile, v[d]);
    }
  }
  for (Index first = blockIdx.x; first < a.tiles; first += ahead * grid) {
#pragma unroll
    for (int d = 0; d < ahead; ++d) {
      const Index t = first + d * grid;
      if (t >= a.tiles) return;  // the same for the whole block
      const unsigned loading = at[d].last ? w.loadLast : w.loadTile;
#pragma unroll
      for (int j = 0; j < K; ++j)
        if (loading >> j & 1) *reinterpret_cast<V*>(shared + w.loadShared[j]) = v[d][j];
      __syncthreads();
      const Bases<Index> here = at[d];
      const Index next = t + ahead * grid;
      if (next < a.tiles) {
        at[d] = basesOf(a, next);
        loadWords(src, at[d].src, w.srcAt, at[d].last ? w.loadLast : w.loadTile, v[d]);
      }
      gatherAndStore<T, V, K>(w, shared, dst + here.dst, here.last ? w.storeLast : w.storeTile);
      __syncthreads();
    }
  }
}

// The launch's arguments, the tile unpadded in shared memory: words of the source's order lie
// whole there.
Args<Index> wordArgsOf(const PackedLaunch& l) {
  PackedTiling linear = l.tiling;
  int stride = 1;
  for (int k = 0; k < linear.rank; ++k) {
    linear.axis[k].sharedStride = stride;
    stride *= linear.axis[k].extent;
  }
  return argsOf<Index>(linear, l.block);
}

template <typename T, typename V, int K>
void launchWith(const PackedLaunch& l, cudaStream_t stream, int* resident) {
  if (resident) {
    *resident = residentBlocks(packedWordsKernel<T, V, K>, l.block, l.sharedBytes());
    return;
  }
  packedWordsKernel<T, V, K><<<l.grid, l.block, l.sharedBytes(), stream>>>(
      static_cast<const T*>(l.src), static_cast<T*>(l.dst), wordArgsOf(l), l.words.swizzle);
  KWB_CHECK_LAUNCH("packedWordsKernel");
}

// Words a thread at most: 16 elements of a 16-byte word of bytes, else 8 of a tile of 4096.
template <typename T, typename V>
void launchWords(const PackedLaunch& l, cudaStream_t stream, int* resident) {
  constexpr int E = sizeof(V) / sizeof(T);
  switch (l.perThread()) {
    case 1: return launchWith<T, V, 1>(l, stream, resident);
    case 2:
      if constexpr (2 * E <= 8) return launchWith<T, V, 2>(l, stream, resident);
      break;
    case 4:
      if constexpr (4 * E <= 8) return launchWith<T, V, 4>(l, stream, resident);
      break;
    default: break;
  }
  throw Error(ErrorKind::Internal,
              "packed permute: " + std::to_string(l.perThread()) + " words of " +
                  std::to_string(l.words.bytes) + " bytes a thread for a tile of " +
                  std::to_string(l.tiling.volume) + " and blocks of " + std::to_string(l.block));
}

template <typename T>
void launchElements(const PackedLaunch& l, cudaStream_t stream, int* resident) {
  switch (l.words.bytes) {
    case 4:
      if constexpr (sizeof(T) < 4) return launchWords<T, std::uint32_t>(l, stream, resident);
      break;
    case 8: return launchWords<T, uint2>(l, stream, resident);
    case 16: return launchWords<T, uint4>(l, stream, resident);
    default: break;
  }
  throw Error(ErrorKind::Internal, "packed permute: no words of " + std::to_string(l.words.bytes) +
                                       " bytes for elements of " + std::to_string(sizeof(T)));
}

}  // namespace

void launchPackedWords(const PackedLaunch& l, cudaStream_t stream, int* resident) {
  if (!l.index32 || l.block > kMaxBlock)
    throw Error(ErrorKind::Internal, "packed permute in words: 32-bit indices and blocks of " +
                                         std::to_string(kMaxBlock) + " or fewer");
  switch (l.elementBytes) {
    case 1: return launchElements<std::uint8_t>(l, stream, resident);
    case 2: return launchElements<std::uint16_t>(l, stream, resident);
    case 4: return launchElements<std::uint32_t>(l, stream, resident);
    default: break;
  }
  throw Error(ErrorKind::Internal,
              "packed permute in words: elements of " + std::to_string(l.elementBytes) + " bytes");
}

}  // namespace kwb::permute
