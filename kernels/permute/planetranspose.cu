// Batched transposes of small planes, one plane at a time through a block's shared memory.
#include <algorithm>
#include <cstdint>
#include <set>
#include <type_traits>

#include "kernels/cudacheck.h"
#include "kernels/permute/planetranspose.h"
#include "kernels/units.cuh"

namespace kwb::permute {
namespace {

// The element of its word that lane `lane` takes in gather step `step`: lanes 8 apart start on
// different elements, so that where lanes 8 apart are a bank's multiple of words apart (rows of
// 100 bytes: 4 rows a word, 400 bytes a lane) they still fall in different banks.
__host__ __device__ constexpr int elementAt(int step, int lane, int perWord) {
  return (step + lane / 8) % perWord;
}

// Source planes rows x cols of T, destination planes cols x rows. Each block takes planes a
// grid apart: it loads a plane in 16-byte vectors into shared memory, then each lane builds
// destination words of E elements from rows r .. r + E - 1 of source column c and stores them,
// a warp's 32 consecutive words a step.
template <typename T, typename W>
__global__ void planeTransposeKernel(const T* __restrict__ src, T* __restrict__ dst,
                                     std::int64_t planes, int rows, int cols) {
  constexpr int E = sizeof(W) / sizeof(T);
  extern __shared__ __align__(16) unsigned char shared[];
  const T* plane = reinterpret_cast<const T*>(shared);
  const int elements = rows * cols;
  const int vectors = elements * static_cast<int>(sizeof(T)) / 16;
  const int words = elements / E;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int stride = static_cast<int>(blockDim.x);
  for (std::int64_t p = blockIdx.x; p < planes; p += gridDim.x) {
    const auto* from = reinterpret_cast<const uint4*>(src + p * elements);
    for (int v = static_cast<int>(threadIdx.x); v < vectors; v += stride)
      reinterpret_cast<uint4*>(shared)[v] = from[v];
    __syncthreads();
    W* to = reinterpret_cast<W*>(dst + p * elements);
    int w = static_cast<int>(threadIdx.x);
    int c = w * E / rows, r = w * E - c * rows;
    for (; w < words; w += stride) {
      // Shifted into place, not written to an array by a lane-dependent index (which would
      // put the array in local memory).
      W word = 0;
#pragma unroll
      for (int step = 0; step < E; ++step) {
        const int k = elementAt(step, lane, E);
        word |= static_cast<W>(plane[(r + k) * cols + c]) << (8 * sizeof(T) * k);
      }
      to[w] = word;
      r += stride * E;
      while (r >= rows) {
        r -= rows;
        ++c;
      }
    }
    __syncthreads();
  }
}

// The word a destination row stores in: 8 bytes for 8-byte elements, else 4.
template <typename T>
using WordOf = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;

}  // namespace

int PlaneLaunch::bankWays() const {
  const int e = wordElements();
  int most = 1;
  for (int step = 0; step < e; ++step) {
    std::set<std::int64_t> words[32];
    for (int lane = 0; lane < 32; ++lane) {
      const std::int64_t first = std::int64_t{lane} * e;  // row of column 0
      const std::int64_t row = first + elementAt(step, lane, e);
      if (row >= rows) continue;
      const std::int64_t word = row * cols * elementBytes / 4;
      words[word % 32].insert(word);
    }
    for (const auto& bank : words) most = std::max(most, static_cast<int>(bank.size()));
  }
  return most;
}

bool planesFit(std::int64_t rows, std::int64_t cols, int elementBytes,
               std::int64_t sourceOffsetBytes, std::int64_t maxPlaneBytes) {
  const PlaneLaunch l{1, rows, cols, elementBytes};
  return l.wholeVectors() && l.planeBytes() <= maxPlaneBytes && l.wholeWords() &&
         sourceOffsetBytes % 16 == 0;
}

int residentPlaneBlocks(const PlaneLaunch& l) {
  int perSm = 0;
  withUnit<8>(l.elementBytes, "plane transpose", [&](auto t) {
    using T = decltype(t);
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &perSm, planeTransposeKernel<T, WordOf<T>>, l.block,
            static_cast<std::size_t>(l.planeBytes())) != cudaSuccess) {
      cudaGetLastError();  // no device answers (a plan made without one): not an error to keep
      perSm = 0;
    }
  });
  return perSm;
}

void launchPlaneTranspose(const PlaneLaunch& l, cudaStream_t stream) {
  withUnit<8>(l.elementBytes, "plane transpose", [&](auto t) {
    using T = decltype(t);
    // Planes of at most 48 KiB: no opting in to more shared memory.
    planeTransposeKernel<T, WordOf<T>>
        <<<l.grid, l.block, static_cast<std::size_t>(l.planeBytes()), stream>>>(
            static_cast<const T*>(l.src), static_cast<T*>(l.dst), l.batch, static_cast<int>(l.rows),
            static_cast<int>(l.cols));
    KWB_CHECK_LAUNCH("planeTransposeKernel");
  });
}

}  // namespace kwb::permute
