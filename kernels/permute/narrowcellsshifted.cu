// Narrow cells whose runs start inside 4-byte words: planes of a width that is not whole words, a
// source or destination off a word. Each lane still takes word w of every plane's run, bytes
// 4w .. 4w + 3 from the run's start, but reads the aligned words that cover it: its own and the
// next lane's, by a shuffle, funnel-shifted by where the run starts in its word. Stores do the
// same the other way round, and the words a run shares with its neighbours (another warp's span,
// another plane, another matrix) store only its own bytes, one at a time.
#include <cstdint>
#include <type_traits>

#include "kernels/cudacheck.h"
#include "kernels/permute/narrowcell.cuh"
#include "kernels/permute/narrowtranspose.h"
#include "kernels/permute/strideddims.h"

namespace kwb::permute {
namespace {

using namespace narrowcell;

constexpr unsigned kAllLanes = 0xffffffffu;

// The aligned word at p, its bytes from `end` on read as zeros and not touched: a run's last
// word may reach past the tensor.
__device__ __forceinline__ std::uint32_t wordBefore(const std::uint32_t* p, std::uintptr_t end) {
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  if (at + 4 <= end) return __ldg(p);
  std::uint32_t word = 0;
  const auto* bytes = reinterpret_cast<const unsigned char*>(p);
  for (int k = 0; k < 4; ++k)
    if (at + k < end) word |= std::uint32_t{bytes[k]} << (8 * k);
  return word;
}

// Word w of a run that starts `shift` bytes into aligned word 0: bytes 4w + shift .. 4w + shift + 3
// of aligned words w and w + 1.
__device__ __forceinline__ std::uint32_t runFromAligned(std::uint32_t word, std::uint32_t after,
                                                        int shift) {
  return __funnelshift_r(word, after, 8 * shift);
}

// Aligned word i of the same run: its bytes 4i - shift .. 4i - shift + 3, from its words i - 1
// and i (the clamped shift takes word i whole where the run starts on a word).
__device__ __forceinline__ std::uint32_t alignedFromRun(std::uint32_t before, std::uint32_t word,
                                                        int shift) {
  return __funnelshift_rc(before, word, 32 - 8 * shift);
}

// The run's bytes of aligned word i, one at a time: bytes 4i - shift .. 4i - shift + 3 of the run
// that it holds.
__device__ __forceinline__ void storeRunBytes(std::uint32_t* aligned, int i, int shift, int bytes,
                                              std::uint32_t word) {
  auto* out = reinterpret_cast<unsigned char*>(aligned + i);
  const int first = 4 * i - shift;
#pragma unroll
  for (int k = 0; k < 4; ++k)
    if (first + k >= 0 && first + k < bytes) out[k] = static_cast<unsigned char>(word >> (8 * k));
}

// A warp's stores of a run of `bytes` that starts `shift` bytes into aligned word 0, word
// lane + 32k of it given as put(k, ...): the run's whole words store as they come, without a
// branch; the words it shares with its neighbours at either end (another span's, plane's or
// matrix's), its head (word 0, where it starts inside it) and its tail, are kept for finish() to
// store the run's bytes of them one at a time.
struct RunStore {
  std::uint32_t* aligned;
  std::uint32_t* lanes;  // the lane's first word, so that word k is an offset from it
  int shift, bytes, lane;
  int first, last, tail;  // whole words first .. last - 1; the tail, or -1
  std::uint32_t headWord = 0, tailWord = 0;

  __device__ __forceinline__ RunStore(std::uint32_t* aligned, int shift, int bytes, int lane)
      : aligned(aligned),
        lanes(aligned + lane),
        shift(shift),
        bytes(bytes),
        lane(lane),
        first(shift > 0),
        last(max((shift + bytes) / 4, first)),
        tail((shift + bytes) % 4 != 0 ? (shift + bytes) / 4 : -1) {}
  // The last word the run touches: words past it hold nothing of the run.
  __device__ __forceinline__ int lastTouched() const { return tail >= 0 ? tail : last - 1; }
  __device__ __forceinline__ void put(int k, std::uint32_t word) {
    const int i = lane + k * kWarp;
    if (static_cast<unsigned>(i - first) < static_cast<unsigned>(last - first))
      lanes[k * kWarp] = word;
    if (k == 0) headWord = word;
    if (k == tail / kWarp) tailWord = word;
  }
  __device__ __forceinline__ void finish() const {
    if (lane == 0 && shift > 0) storeRunBytes(aligned, 0, shift, bytes, headWord);
    if (tail >= 0 && lane == tail % kWarp) storeRunBytes(aligned, tail, shift, bytes, tailWord);
  }
};

// Where a byte offset of a tensor lies: the aligned word that holds it, and how far into it.
template <typename Word>
struct RunStart {
  Word* aligned;
  int shift;
};

// Pointer arithmetic on the kernel's own pointers, not integers made pointers, keeps the
// accesses global.
template <typename Byte>
__device__ __forceinline__ auto runStart(Byte* base, std::int64_t offset) {
  using Word = std::conditional_t<std::is_const_v<Byte>, const std::uint32_t, std::uint32_t>;
  Byte* at = base + offset;
  const int shift = static_cast<int>(reinterpret_cast<std::uintptr_t>(at) & 3);
  return RunStart<Word>{reinterpret_cast<Word*>(at - shift), shift};
}

// Loads aligned words 0 .. count - 1 of a run through `use(k, word)`, word lane + 32k, k < K:
// plain loads where the run's words all lie inside the source (a choice the warp makes as one),
// else each word's bytes past the source read as zeros.
template <int K, typename Use>
__device__ __forceinline__ void loadRun(const std::uint32_t* aligned, int count,
                                        std::uintptr_t sourceEnd, int lane, Use use) {
  if (reinterpret_cast<std::uintptr_t>(aligned + count) <= sourceEnd) {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const int i = lane + k * kWarp;
      use(k, i < count ? __ldg(aligned + i) : 0u);
    }
  } else {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const int i = lane + k * kWarp;
      use(k, i < count ? wordBefore(aligned + i, sourceEnd) : 0u);
    }
  }
}

// The narrow cells kernel's spans (narrowcells.cu) over runs that start anywhere: planes of
// `planeBytes`, matrices of N of them, a source of `sourceBytes`.
template <int B, int N, bool PlanarSource>
__global__ void __launch_bounds__(kMaxCellBlock)
    narrowShiftedCellsKernel(const unsigned char* __restrict__ src, unsigned char* __restrict__ dst,
                             std::int64_t planeBytes, std::int64_t sourceBytes,
                             std::int64_t spansPerMatrix, std::int64_t spans,
                             MatrixOrder<std::int64_t> order) {
  constexpr int kAccesses = kCellsPerLane;
  extern __shared__ uint4 shared[];
  const MatrixOrder<std::int64_t>& sourceOrder = sharedCopyOf(order);
  const int lane = static_cast<int>(threadIdx.x) % kWarp;
  const int warp = static_cast<int>(threadIdx.x) / kWarp;
  std::uint32_t* stage = reinterpret_cast<std::uint32_t*>(shared) + warp * stageWords(N);
  const auto slot = [](int v) { return stageSlot<N, std::uint32_t>(v); };
  const std::uintptr_t sourceEnd = reinterpret_cast<std::uintptr_t>(src) + sourceBytes;
  const std::int64_t matrixBytes = N * planeBytes, planeWords = (planeBytes + 3) / 4;
  const std::int64_t warps = std::int64_t{gridDim.x} * (blockDim.x / kWarp);
  for (std::int64_t span = std::int64_t{blockIdx.x} * (blockDim.x / kWarp) + warp; span < spans;
       span += warps) {
    const std::int64_t m = quotientOf(span, spansPerMatrix);
    const std::int64_t w0 = (span - m * spansPerMatrix) * kSpanWords;
    const int count = static_cast<int>(min(std::int64_t{kSpanWords}, planeWords - w0));
    // The span's bytes of each plane, and of the interleaved run.
    const int planeHeld = static_cast<int>(min(std::int64_t{4} * count, planeBytes - 4 * w0));
    const int runHeld = N * planeHeld;
    const std::int64_t source = sourceOrder.source(m);
    const std::int64_t planar = (PlanarSource ? source : m) * matrixBytes + 4 * w0;
    const std::int64_t interleaved = (PlanarSource ? m : source) * matrixBytes + 4 * N * w0;
    std::uint32_t cells[kAccesses][N];
    if constexpr (PlanarSource) {
#pragma unroll
      for (int p = 0; p < N; ++p) {
        const auto run = runStart(src, planar + p * planeBytes);
        // Words lane + 32a, and word 128 of the span for lane 0 to hand lane 31.
        std::uint32_t words[kAccesses + 1];
        loadRun<kAccesses + 1>(run.aligned, count + 1, sourceEnd, lane,
                               [&](int a, std::uint32_t w) { words[a] = w; });
#pragma unroll
        for (int a = 0; a < kAccesses; ++a) {
          const std::uint32_t next =
              __shfl_sync(kAllLanes, lane == 0 ? words[a + 1] : words[a], (lane + 1) % kWarp);
          cells[a][p] = runFromAligned(words[a], next, run.shift);
        }
      }
#pragma unroll
      for (int a = 0; a < kAccesses; ++a) {
        const int g = lane + a * kWarp;
        std::uint32_t out[N];
        interleaveCell<B, N>(cells[a], out);
        if (g < count) {
#pragma unroll
          for (int j = 0; j < N; ++j) stage[slot(g * N + j)] = out[j];
        }
      }
      __syncwarp();
      const auto run = runStart(dst, interleaved);
      RunStore store(run.aligned, run.shift, runHeld, lane);
#pragma unroll
      for (int k = 0; k <= kAccesses * N; ++k) {
        // Words past the run's last read its last again, and store nothing.
        const int i = min(lane + k * kWarp, max(store.lastTouched(), 0));
        store.put(k, alignedFromRun(stage[slot(max(i - 1, 0))], stage[slot(i)], run.shift));
      }
      store.finish();
    } else {
      const auto run = runStart(src, interleaved);
      const int words = (run.shift + runHeld + 3) / 4;
      loadRun<kAccesses * N + 1>(run.aligned, words, sourceEnd, lane, [&](int k, std::uint32_t w) {
        if (lane + k * kWarp < words) stage[slot(lane + k * kWarp)] = w;
      });
      __syncwarp();
#pragma unroll
      for (int a = 0; a < kAccesses; ++a) {
        std::uint32_t in[N];
#pragma unroll
        for (int j = 0; j < N; ++j) {
          const int v = (lane + a * kWarp) * N + j;
          in[j] = runFromAligned(stage[slot(v)], stage[slot(v + 1)], run.shift);
        }
        deinterleaveCell<B, N>(in, cells[a]);
      }
#pragma unroll
      for (int p = 0; p < N; ++p) {
        const auto out = runStart(dst, planar + p * planeBytes);
        RunStore store(out.aligned, out.shift, planeHeld, lane);
        // Aligned word i takes the plane's words i - 1 and i: lane 0 takes word i - 1 from lane
        // 31 of the access before, and lane 0 past the last access the span's last word, in part.
#pragma unroll
        for (int a = 0; a <= kAccesses; ++a) {
          const std::uint32_t word = a < kAccesses ? cells[a][p] : 0;
          const std::uint32_t before =
              __shfl_sync(kAllLanes, lane == kWarp - 1 && a > 0 ? cells[a - 1][p] : word,
                          (lane + kWarp - 1) % kWarp);
          store.put(a, alignedFromRun(before, word, out.shift));
        }
        store.finish();
      }
    }
    __syncwarp();  // the stretch is written again for the next span
  }
}

template <int B, int N>
void launchTyped(const NarrowLaunch& l, cudaStream_t stream) {
  const std::int64_t perMatrix = spansPerMatrix(l);
  const auto kernel =
      l.planarSource ? narrowShiftedCellsKernel<B, N, true> : narrowShiftedCellsKernel<B, N, false>;
  const std::int64_t planeBytes = l.wide * l.elementBytes;
  kernel<<<l.grid, l.block, static_cast<std::size_t>(narrowCellsSharedBytes(N, l.block)), stream>>>(
      static_cast<const unsigned char*>(l.src), static_cast<unsigned char*>(l.dst), planeBytes,
      l.batch * l.narrow * planeBytes, perMatrix, l.batch * perMatrix, l.order);
  KWB_CHECK_LAUNCH("narrowShiftedCellsKernel");
}

}  // namespace

void launchNarrowShiftedCells(const NarrowLaunch& l, cudaStream_t stream) {
  withCellShape(l, "narrow shifted cells",
                [&](auto b, auto n) { launchTyped<b.value, n.value>(l, stream); });
}

}  // namespace kwb::permute
