// Narrow transposes of bytes and halves in cells: a lane loads 4-byte words of each plane (16-byte
// vectors where every run starts on one), or as many of the interleaved run they make, transposes
// each cell in registers with byte permutes, and a warp's cells pass through its own stretch of
// shared memory in whole accesses, so that both sides move coalesced. The shared-memory kernel
// puts each element into shared memory by itself: for bytes, a shared store a byte, which held it
// near two thirds of the copy ceiling.
#include <cstdint>
#include <string>

#include "core/error.h"
#include "kernels/cudacheck.h"
#include "kernels/hostdevice.h"
#include "kernels/permute/narrowcell.cuh"
#include "kernels/permute/narrowtranspose.h"
#include "kernels/permute/strideddims.h"

namespace kwb::permute {
namespace {

using namespace narrowcell;

__device__ __forceinline__ std::uint32_t wordOf(const std::uint32_t& a, int) {
  return a;
}
__device__ __forceinline__ std::uint32_t wordOf(const uint4& a, int k) {
  return k == 0 ? a.x : k == 1 ? a.y : k == 2 ? a.z : a.w;
}
__device__ __forceinline__ void setWord(std::uint32_t& a, int, std::uint32_t w) {
  a = w;
}
__device__ __forceinline__ void setWord(uint4& a, int k, std::uint32_t w) {
  (k == 0 ? a.x : k == 1 ? a.y : k == 2 ? a.z : a.w) = w;
}

// Each warp takes spans a grid's warps apart: span s of destination matrix m covers words
// w0 .. w0 + kSpanWords - 1 of each of the matrix's N planes (fewer in a plane's last span), and
// the interleaved run of N times as many words they make. A lane's cells are words lane + 32a of
// each plane in words, 4 lane .. 4 lane + 3 in vectors. `order` gives a reordered batch's source
// matrix.
template <int B, int N, bool PlanarSource, typename A>
__global__ void __launch_bounds__(kMaxCellBlock)
    narrowCellsKernel(const A* __restrict__ src, A* __restrict__ dst, std::int64_t planeWords,
                      std::int64_t spansPerMatrix, std::int64_t spans,
                      MatrixOrder<std::int64_t> order) {
  constexpr int V = kWordsOf<A>, kAccesses = kCellsPerLane / V;
  extern __shared__ uint4 shared[];
  const MatrixOrder<std::int64_t>& sourceOrder = sharedCopyOf(order);
  const int lane = static_cast<int>(threadIdx.x) % kWarp;
  const int warp = static_cast<int>(threadIdx.x) / kWarp;
  A* stage = reinterpret_cast<A*>(reinterpret_cast<std::uint32_t*>(shared) + warp * stageWords(N));
  const std::int64_t planeAccesses = planeWords / V;
  const std::int64_t warps = std::int64_t{gridDim.x} * (blockDim.x / kWarp);
  for (std::int64_t span = std::int64_t{blockIdx.x} * (blockDim.x / kWarp) + warp; span < spans;
       span += warps) {
    const std::int64_t m = quotientOf(span, spansPerMatrix);
    const std::int64_t a0 = (span - m * spansPerMatrix) * (kSpanWords / V);
    // The span's accesses of each plane; planes of whole vectors where V is 4.
    const int count = static_cast<int>(min(std::int64_t{kSpanWords / V}, planeAccesses - a0));
    const std::int64_t source = sourceOrder.source(m);
    const std::int64_t planar = (PlanarSource ? source : m) * N * planeAccesses + a0;
    const std::int64_t interleaved = (PlanarSource ? m : source) * N * planeAccesses + a0 * N;
    std::uint32_t cells[kCellsPerLane][N];
    if constexpr (PlanarSource) {
#pragma unroll
      for (int a = 0; a < kAccesses; ++a) {
        const int g = lane + a * kWarp;
#pragma unroll
        for (int p = 0; p < N; ++p) {
          const A v = g < count ? src[planar + p * planeAccesses + g] : A{};
#pragma unroll
          for (int k = 0; k < V; ++k) cells[a * V + k][p] = wordOf(v, k);
        }
      }
#pragma unroll
      for (int a = 0; a < kAccesses; ++a) {
        const int g = lane + a * kWarp;
        std::uint32_t run[V][N];
#pragma unroll
        for (int k = 0; k < V; ++k) interleaveCell<B, N>(cells[a * V + k], run[k]);
        if (g < count) {
#pragma unroll
          for (int j = 0; j < N; ++j) {
            A out;
#pragma unroll
            for (int k = 0; k < V; ++k) setWord(out, k, run[(j * V + k) / N][(j * V + k) % N]);
            stage[stageSlot<N, A>(g * N + j)] = out;
          }
        }
      }
      __syncwarp();
#pragma unroll
      for (int i = 0; i < kAccesses * N; ++i) {
        const int v = i * kWarp + lane;
        if (v < count * N) dst[interleaved + v] = stage[stageSlot<N, A>(v)];
      }
    } else {
      A words[kAccesses * N];
#pragma unroll
      for (int i = 0; i < kAccesses * N; ++i) {
        const int v = i * kWarp + lane;
        words[i] = v < count * N ? src[interleaved + v] : A{};
      }
#pragma unroll
      for (int i = 0; i < kAccesses * N; ++i) stage[stageSlot<N, A>(i * kWarp + lane)] = words[i];
      __syncwarp();
#pragma unroll
      for (int a = 0; a < kAccesses; ++a) {
        const int g = lane + a * kWarp;
        if (g >= count) break;
        std::uint32_t run[V][N];
#pragma unroll
        for (int j = 0; j < N; ++j) {
          const A in = stage[stageSlot<N, A>(g * N + j)];
#pragma unroll
          for (int k = 0; k < V; ++k) run[(j * V + k) / N][(j * V + k) % N] = wordOf(in, k);
        }
#pragma unroll
        for (int k = 0; k < V; ++k) deinterleaveCell<B, N>(run[k], cells[a * V + k]);
#pragma unroll
        for (int p = 0; p < N; ++p) {
          A out;
#pragma unroll
          for (int k = 0; k < V; ++k) setWord(out, k, cells[a * V + k][p]);
          dst[planar + p * planeAccesses + g] = out;
        }
      }
    }
    __syncwarp();  // the stretch is written again for the next span
  }
}

// Whether every plane's run starts on a 16-byte vector: then lanes move vectors, not words.
bool narrowCellVectors(std::int64_t wide, int elementBytes, const void* src, const void* dst) {
  return wide * elementBytes % 16 == 0 && reinterpret_cast<std::uintptr_t>(src) % 16 == 0 &&
         reinterpret_cast<std::uintptr_t>(dst) % 16 == 0;
}

template <int B, int N, typename A>
void launchTyped(const NarrowLaunch& l, cudaStream_t stream) {
  const std::int64_t perMatrix = spansPerMatrix(l);
  const auto kernel =
      l.planarSource ? narrowCellsKernel<B, N, true, A> : narrowCellsKernel<B, N, false, A>;
  kernel<<<l.grid, l.block, static_cast<std::size_t>(narrowCellsSharedBytes(N, l.block)), stream>>>(
      static_cast<const A*>(l.src), static_cast<A*>(l.dst), planeWords(l), perMatrix,
      l.batch * perMatrix, l.order);
  KWB_CHECK_LAUNCH("narrowCellsKernel");
}

}  // namespace

bool narrowCellsFit(std::int64_t narrow, int elementBytes) {
  return elementBytes <= 2 && narrow >= 2 && narrow <= kMaxCellNarrow;
}

bool narrowCellsAligned(std::int64_t wide, int elementBytes, std::int64_t sourceOffsetBytes) {
  return wide * elementBytes % 4 == 0 && sourceOffsetBytes % 4 == 0;
}

// Shifted cells against the shared exchange (H200): bytes from planes 1.01 to 1.18x as fast
// ((78, 96, 3, 5974) with (1, 0, 3, 2): 2307 -> 2654 GB/s; (128, 8, 65537) with (0, 2, 1): 1719
// -> 2025), bytes into planes 0.98 to 1.01x, halves 0.73 to 0.76x ((22369621, 6) reversed: 3434
// against 2521): their per-span shifts and shared words cost what the byte stores saved.
bool narrowCellsPay(std::int64_t narrow, std::int64_t wide, int elementBytes,
                    std::int64_t sourceOffsetBytes, bool planarSource) {
  return narrowCellsFit(narrow, elementBytes) &&
         (narrowCellsAligned(wide, elementBytes, sourceOffsetBytes) ||
          (elementBytes == 1 && planarSource));
}

bool narrowCellsShifted(const NarrowLaunch& l) {
  return l.wide * l.elementBytes % 4 != 0 || reinterpret_cast<std::uintptr_t>(l.src) % 4 != 0 ||
         reinterpret_cast<std::uintptr_t>(l.dst) % 4 != 0;
}

bool narrowCellsFitBlock(std::int64_t narrow, int block) {
  return narrowCellsSharedBytes(narrow, block) <= kMaxCellSharedBytes;
}

std::int64_t narrowCellsSharedBytes(std::int64_t narrow, int block) {
  return std::int64_t{stageWords(static_cast<int>(narrow))} * 4 * (block / kWarp);
}

std::int64_t narrowCellSpans(const NarrowLaunch& l) {
  return l.batch * spansPerMatrix(l);
}

void launchNarrowCells(const NarrowLaunch& l, cudaStream_t stream) {
  if (!narrowCellsFit(l.narrow, l.elementBytes) || !narrowCellsFitBlock(l.narrow, l.block))
    throw Error(ErrorKind::Internal, "narrow cells: " + std::to_string(l.narrow) + " planes of " +
                                         std::to_string(l.elementBytes) +
                                         "-byte elements, or a block past shared memory");
  if (narrowCellsShifted(l)) return launchNarrowShiftedCells(l, stream);
  withCellShape(l, "narrow cells", [&](auto b, auto n) {
    if (narrowCellVectors(l.wide, l.elementBytes, l.src, l.dst))
      return launchTyped<b.value, n.value, uint4>(l, stream);
    launchTyped<b.value, n.value, std::uint32_t>(l, stream);
  });
}

}  // namespace kwb::permute
