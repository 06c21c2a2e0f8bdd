// What the narrow cells kernels share: a warp's span, the cells' byte permutes and where a warp's
// interleaved run lies in its stretch of shared memory.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include <cuda_runtime.h>

#include "core/error.h"
#include "kernels/hostdevice.h"
#include "kernels/permute/narrowtranspose.h"

namespace kwb::permute {

namespace narrowcell {

inline constexpr int kWarp = 32;
// Cells a lane moves of each span: a warp's span is kCellsPerLane words of every plane.
inline constexpr int kCellsPerLane = 4;
inline constexpr int kSpanWords = kWarp * kCellsPerLane;
// The narrow kernel's largest block: its registers must fit one.
inline constexpr int kMaxCellBlock = 512;

// A byte permute's selector that keeps the accumulator's bytes but element `slot` of the word,
// which takes element `from` of the other operand (elements of B bytes).
template <int B>
__device__ constexpr unsigned keepAllBut(int slot, int from) {
  unsigned selector = 0;
  for (int byte = 0; byte < 4; ++byte) {
    const int nibble = byte / B == slot ? 4 + from * B + byte % B : byte;
    selector |= static_cast<unsigned>(nibble) << (4 * byte);
  }
  return selector;
}

// Output word w of a cell (N words of E = 4 / B elements), element e of it, is element k of
// input word i, where (i, k) = from(w, e).
template <int B, int N, typename From>
__device__ __forceinline__ void permuteCell(const std::uint32_t (&in)[N], std::uint32_t (&out)[N],
                                            From from) {
  constexpr int E = 4 / B;
#pragma unroll
  for (int w = 0; w < N; ++w) {
    std::uint32_t word = 0;
#pragma unroll
    for (int e = 0; e < E; ++e) {
      const int2 at = from(w, e);
      word = __byte_perm(word, in[at.x], keepAllBut<B>(e, at.y));
    }
    out[w] = word;
  }
}

// Element e of the interleaved run's word j is column (jE + e) / N of plane (jE + e) mod N.
template <int B, int N>
__device__ __forceinline__ void interleaveCell(const std::uint32_t (&planes)[N],
                                               std::uint32_t (&run)[N]) {
  permuteCell<B, N>(planes, run, [](int j, int e) {
    const int q = j * (4 / B) + e;
    return make_int2(q % N, q / N);
  });
}

// The inverse: column c of plane p is element (cN + p) mod E of run word (cN + p) / E.
template <int B, int N>
__device__ __forceinline__ void deinterleaveCell(const std::uint32_t (&run)[N],
                                                 std::uint32_t (&planes)[N]) {
  permuteCell<B, N>(run, planes, [](int p, int c) {
    const int q = c * N + p;
    return make_int2(q / (4 / B), q % (4 / B));
  });
}

// A lane's access: a word, or 4 of them where every run starts on a 16-byte vector.
template <typename A>
inline constexpr int kWordsOf = sizeof(A) / 4;

// Where access v of a warp's interleaved span lies in its stretch of shared memory. Lanes write
// or read their cells' accesses N apart: for even N a spare access after each phase's worth (32
// words, 8 vectors) spreads them over the banks, while consecutive accesses stay apart.
template <int N, typename A>
__device__ __forceinline__ int stageSlot(int v) {
  constexpr int phase = 32 / kWordsOf<A>;
  return N % 2 == 0 ? v + v / phase : v;
}

// A warp's stretch, in words: the span's interleaved run, its spare accesses, and a spare vector
// for the word past the run that a run starting inside a word reads.
KWB_HOST_DEVICE constexpr int stageWords(int narrow) {
  return narrow * kSpanWords + (narrow % 2 == 0 ? narrow * kSpanWords / kWarp * 4 : 0) + 4;
}

// Words of a plane, the last in part where its width is not whole words, and the warps' spans
// that cover them.
inline std::int64_t planeWords(const NarrowLaunch& l) {
  return (l.wide * l.elementBytes + 3) / 4;
}
inline std::int64_t spansPerMatrix(const NarrowLaunch& l) {
  return (planeWords(l) + kSpanWords - 1) / kSpanWords;
}

// Calls launch(B, N) with the launch's element bytes B (1 or 2) and planes N (2 to
// kMaxCellNarrow) as std::integral_constant, the kernels' template arguments; Error(Internal)
// naming `kernel` for any other count of planes.
template <int N = 2, typename Launch>
void withCellShape(const NarrowLaunch& l, const char* kernel, Launch launch) {
  if constexpr (N <= kMaxCellNarrow) {
    if (l.narrow != N) return withCellShape<N + 1>(l, kernel, launch);
    if (l.elementBytes == 1)
      return launch(std::integral_constant<int, 1>{}, std::integral_constant<int, N>{});
    return launch(std::integral_constant<int, 2>{}, std::integral_constant<int, N>{});
  }
  throw Error(ErrorKind::Internal,
              std::string(kernel) + ": no kernel for " + std::to_string(l.narrow) + " planes");
}

}  // namespace narrowcell

// Planes or tensors that start inside 4-byte words (narrowcellsshifted.cu): lanes read the
// aligned words that cover their runs and shift them into place.
void launchNarrowShiftedCells(const NarrowLaunch& launch, cudaStream_t stream);

}  // namespace kwb::permute
