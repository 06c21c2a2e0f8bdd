// General tiles whose units are rows of any length that stay innermost (15 bytes of u8, 5 halves):
// a tile's rows read in the aligned 8-byte words that cover them into shared memory, each column's
// destination run gathered from the units' bytes in chunks of up to 16, funnel-shifted into place
// and merged where a chunk meets the next unit, and stored in aligned 16-byte windows. A run's
// first and last windows store its whole 4-byte words and set its bytes of the others.
#include <cstdint>
#include <type_traits>

#include "core/error.h"
#include "kernels/cudacheck.h"
#include "kernels/permute/generaltile.cuh"
#include "kernels/permute/generaltiled.h"

namespace kwb::permute {
namespace {

using namespace tile;

constexpr int kInFlight = 4;  // 8-byte loads each thread has in flight before it stores them
constexpr int kWindowBytes = 16;

struct RowArgs {
  int unitBytes;
  unsigned unitReciprocal;  // ceil(2^32 / unitBytes): a run's byte over unitBytes, exact
  int rowWordShift;         // log2 of a row's 8-byte words in shared memory, its spare one aside
  std::int64_t dstEnd;      // the destination's end, in bytes from its aligned start
};

// C bytes from byte `at` of the tile on, as C / 4 words.
template <int C>
__device__ __forceinline__ void bytesAt(const std::uint32_t* tile, int at, std::uint32_t* out) {
  const std::uint32_t* word = tile + (at >> 2);
  const int shift = (at & 3) * 8;
  std::uint32_t w[C / 4 + 1];
#pragma unroll
  for (int j = 0; j <= C / 4; ++j) w[j] = word[j];
#pragma unroll
  for (int j = 0; j < C / 4; ++j) out[j] = __funnelshift_r(w[j], w[j + 1], shift);
}

// A window's C bytes from byte q of a column's run on, q anywhere from a window before the run
// to one past it: unit o = q / L from its byte k = q % L, then the next units, Parts in all.
// Each part reads C bytes of its unit's row laid so that the chunk's byte x is the part's byte
// x where the part holds it; from the first byte of each later unit on, that unit's bytes
// replace the ones before. Rows outside the tile read spare places.
template <int C, int Parts>
__device__ __forceinline__ void runChunk(const std::uint32_t* tile, const int* rowStart, int iBytes,
                                         int L, unsigned reciprocal, int q, std::uint32_t* out) {
  constexpr int kBefore = 16;  // q + 16 L >= 0 for the window before the run
  const unsigned biased = static_cast<unsigned>(q + kBefore * L);
  const int o1 = static_cast<int>(__umulhi(biased, reciprocal));
  const int o = o1 - kBefore, k = static_cast<int>(biased) - o1 * L;
  bytesAt<C>(tile, rowStart[o] + iBytes + k, out);
#pragma unroll
  for (int p = 1; p < Parts; ++p) {
    std::uint32_t next[C / 4];
    bytesAt<C>(tile, rowStart[o + p] + iBytes + k - p * L, next);
    const int from = p * L - k;  // the chunk's first byte of unit o + p
#pragma unroll
    for (int j = 0; j < C / 4; ++j) {
      const int kept = min(max(from - 4 * j, 0), 4);  // bytes of word j before it
      const std::uint32_t keep = __funnelshift_lc(0xffffffffu, 0u, 8 * kept);
      out[j] = (out[j] & keep) | (next[j] & ~keep);
    }
  }
}

template <typename Index, int C, int Parts>
__global__ void generalRowsKernel(const std::uint64_t* __restrict__ src, int srcHead,
                                  uint4* __restrict__ dst, int dstHead, const Args<Index> a,
                                  const RowArgs r) {
  using Unsigned = std::make_unsigned_t<Index>;
  extern __shared__ __align__(16) unsigned char shared[];
  const int tileIn = 1 << a.inShift, tileOut = 1 << a.outShift;
  const int L = r.unitBytes, rowWords = 1 << r.rowWordShift, pitch = rowWords + 1;
  Index* srcRow = reinterpret_cast<Index*>(shared);
  Index* dstCol = srcRow + tileOut;
  // Each row's first unit, in bytes, with spare rows either side.
  int* rowStart = reinterpret_cast<int*>(dstCol + tileIn) + kSpareByteRows;
  std::uint64_t* tile = reinterpret_cast<std::uint64_t*>(
      shared +
      (reinterpret_cast<unsigned char*>(rowStart + tileOut + kSpareByteRows) - shared + 7) / 8 * 8);
  const std::uint32_t* tileWords = reinterpret_cast<const std::uint32_t*>(tile);
  const int step = blockDim.x;

  for (Index t = blockIdx.x; t < a.tiles; t += gridDim.x) {
    const TileStart<Index> start = startTile(a, t, srcRow, dstCol);
    const Index in0 = start.in0, out0 = start.out0;
    const auto [cols, rows] = tileSides(a, in0, out0);
    const int runIn = cols * L, runOut = rows * L;
    const int words = rows << r.rowWordShift;
    // Spare rows start far enough into the tile that a later part's reads before them stay in it.
    for (int k = threadIdx.x; k < 2 * kSpareByteRows; k += step)
      rowStart[k < kSpareByteRows ? k - kSpareByteRows : rows + k - kSpareByteRows] = 2 * L;

    for (int l0 = threadIdx.x; l0 < words; l0 += kInFlight * step) {
      std::uint64_t v[kInFlight];
      int slot[kInFlight];  // where in the tile, or -1
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) {
        const int l = l0 + u * step, o = l >> r.rowWordShift, w = l & (rowWords - 1);
        slot[u] = -1;
        if (l < words) {
          const Unsigned b = static_cast<Unsigned>((srcRow[o] + in0) * L + srcHead);
          const int head = static_cast<int>(b % 8);
          if (w == 0) rowStart[o] = o * pitch * 8 + head;
          if (w * 8 < head + runIn) {
            v[u] = src[b / 8 + w];
            slot[u] = o * pitch + w;
          }
        }
      }
#pragma unroll
      for (int u = 0; u < kInFlight; ++u)
        if (slot[u] >= 0) tile[slot[u]] = v[u];
    }
    __syncthreads();

    // Each column's windows, as many as its run may touch; the last is past the run where it
    // starts on a window's first byte.
    const int perColumn = (runOut + 2 * kWindowBytes - 2) / kWindowBytes;
    const unsigned columnReciprocal = 0xffffffffu / static_cast<unsigned>(perColumn) + 1;
    const int windows = cols * perColumn;
    for (int l = threadIdx.x; l < windows; l += step) {
      const int i = static_cast<int>(__umulhi(static_cast<unsigned>(l), columnReciprocal));
      const int w = l - i * perColumn;
      const Unsigned d = static_cast<Unsigned>((dstCol[i] + out0) * L + dstHead);
      const int q0 = w * kWindowBytes - static_cast<int>(d % kWindowBytes);
      if (q0 >= runOut) continue;
      std::uint32_t out[4];
#pragma unroll
      for (int c = 0; c < kWindowBytes / C; ++c)
        runChunk<C, Parts>(tileWords, rowStart, i * L, L, r.unitReciprocal, q0 + c * C,
                           out + c * (C / 4));
      uint4* to = dst + d / kWindowBytes + w;
      if (q0 >= 0 && q0 + kWindowBytes <= runOut) {
        *to = make_uint4(out[0], out[1], out[2], out[3]);
        continue;
      }
      // The run starts or ends in this window: its whole words, and its bytes of the words it
      // shares with other runs, set by atomic and and or (a byte at a time in the word that
      // reaches past the tensor).
      std::uint32_t* word = reinterpret_cast<std::uint32_t*>(to);
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int qj = q0 + 4 * j, lo = max(0, -qj), hi = min(4, runOut - qj);
        if (lo >= hi) continue;
        if (hi - lo == 4) {
          word[j] = out[j];
        } else if ((d / kWindowBytes + w) * kWindowBytes + 4 * j + 4 <= r.dstEnd) {
          const std::uint32_t mask = (0xffffffffu >> (8 * (4 - (hi - lo)))) << (8 * lo);
          atomicAnd(word + j, ~mask);
          atomicOr(word + j, out[j] & mask);
        } else {
          unsigned char* bytes = reinterpret_cast<unsigned char*>(word + j);
          for (int b = lo; b < hi; ++b) bytes[b] = static_cast<unsigned char>(out[j] >> (8 * b));
        }
      }
    }
    __syncthreads();
  }
}

}  // namespace

int GeneralLaunch::byteRowWords() const {
  return powerOfTwoAtLeast((7 + tiling.tileIn * elementBytes + 7) / 8, INT32_MAX);
}

void launchGeneralRows(const GeneralLaunch& l, cudaStream_t stream) {
  const int L = l.elementBytes;
  if (L < 2 || L > kMaxByteRowBytes)
    throw Error(ErrorKind::Internal,
                "general tiled permute: rows of " + std::to_string(L) + " bytes as units");
  const auto src = tile::wordStart<const std::uint64_t>(l.src, 1);
  const auto dst = tile::wordStart<uint4>(l.dst, 1);
  const GeneralTiling& g = l.tiling;
  const RowArgs r{L, static_cast<unsigned>(((std::uint64_t{1} << 32) + L - 1) / L),
                  log2Of(l.byteRowWords()),
                  dst.head + g.inExtent * g.outExtent * g.batchExtent * L};
  const auto launch = [&](auto kernel, auto args) {
    kernel<<<l.grid, l.block, l.sharedBytes(), stream>>>(src.word, src.head, dst.word, dst.head,
                                                         args, r);
    KWB_CHECK_LAUNCH("generalRowsKernel");
  };
  // Chunks as wide as a unit allows, so that each spans two units at most (three for units of
  // 2 bytes).
  const auto withChunks = [&]<typename Index>(Args<Index> args) {
    if (L >= 16) return launch(generalRowsKernel<Index, 16, 2>, args);
    if (L >= 8) return launch(generalRowsKernel<Index, 8, 2>, args);
    if (L >= 3) return launch(generalRowsKernel<Index, 4, 2>, args);
    launch(generalRowsKernel<Index, 4, 3>, args);
  };
  if (l.index32) return withChunks(argsOf<std::int32_t>(l));
  withChunks(argsOf<std::int64_t>(l));
}

}  // namespace kwb::permute
