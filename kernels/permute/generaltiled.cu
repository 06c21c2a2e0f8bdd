// The general tiled permute: a tile of the destination's innermost group of dimensions by the
// source's, read along the source's contiguous run into shared memory and written along the
// destination's. Each row's source offset and each column's destination offset are worked out
// once per tile, so an element costs two shared loads besides its moves.
#include <cstdint>
#include <type_traits>

#include "core/error.h"
#include "kernels/cudacheck.h"
#include "kernels/permute/generaltile.cuh"
#include "kernels/permute/generaltiled.h"
#include "kernels/permute/registertranspose.cuh"
#include "kernels/units.cuh"

namespace kwb::permute {
namespace {

using namespace tile;

// Loads each thread has in flight before it stores the first, for elements of 1 and 2 bytes;
// wider ones are copied into shared memory asynchronously, the whole tile in flight at once.
constexpr int kInFlight = 4;

// The element `offset` past `base`. A 32-bit offset is added unsigned and whole: one wide
// multiply-add, where a signed one takes a sign extension and a 64-bit add besides, and where the
// compiler would add a sum's terms to the pointer one by one.
template <typename T, typename Index>
__device__ __forceinline__ T* elementAt(T* base, Index offset) {
  if constexpr (sizeof(Index) == 4)
    return base + static_cast<std::uint32_t>(offset);
  else
    return base + offset;
}

// How many of first, first + 2^shift, ... lie below end.
__device__ __forceinline__ int stepsBelow(int first, int end, int shift) {
  return first < end ? ((end - 1 - first) >> shift) + 1 : 0;
}

__device__ __forceinline__ std::uint32_t sharedAddress(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// An element copied asynchronously from global into shared memory at shared address `to`, which
// the loops step by adding. Devices before sm_80 load and store it.
template <typename T>
__device__ __forceinline__ void copyAsync(std::uint32_t to, const T* from) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "asynchronous copies of 4 or 8 bytes");
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(to), "l"(from),
               "n"(static_cast<int>(sizeof(T)))
               : "memory");
#else
  if constexpr (sizeof(T) == 4)
    asm volatile("st.shared.b32 [%0], %1;\n" ::"r"(to), "r"(*from) : "memory");
  else
    asm volatile("st.shared.b64 [%0], %1;\n" ::"r"(to), "l"(*from) : "memory");
#endif
}

// Waits for this thread's asynchronous copies.
__device__ __forceinline__ void copiesDone() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;\n" ::: "memory");
#endif
}

// How a block's threads lie along a tile's side of `side` units, both powers of two: `across`
// of them side by side, `first` this thread's place among them, on `line` of the `down` lines
// the block takes at once. A thread keeps its place along the side from line to line, so the
// bounds and offsets of its column (or row) are worked out once.
struct Lanes {
  int across, down, downShift, first, line;
};
__device__ __forceinline__ Lanes lanesAlong(int side) {
  const int step = static_cast<int>(blockDim.x), thread = static_cast<int>(threadIdx.x);
  const int across = min(side, step), shift = __ffs(across) - 1;
  return {across, step >> shift, __ffs(step) - 1 - shift, thread & (across - 1), thread >> shift};
}

// With kAligned, where columns' destination runs start anywhere in a sector, each column writes
// the tileOut elements from the sector boundary at or before its tile's first row, so that every
// warp's store fills whole sectors: the block also reads the kBefore rows before its tile, and
// the out group's last tile writes each column's last elements besides.
template <typename T, typename Index, bool kAligned>
__global__ void generalTiledKernel(const T* __restrict__ src, T* __restrict__ dst,
                                   const Args<Index> a) {
  static_assert(!kAligned || sizeof(T) >= 4, "aligned stores take elements of 4 bytes or more");
  constexpr int kSectorUnits = static_cast<int>(kSectorBytes / sizeof(T));
  constexpr int kBefore = kAligned ? kSectorUnits : 0;
  extern __shared__ __align__(16) unsigned char shared[];
  const int tileIn = 1 << a.inShift, tileOut = 1 << a.outShift, pitch = tileIn + 1;
  const int rows = tileOut + kBefore;
  Index* srcRow = reinterpret_cast<Index*>(shared);  // per row o: the source offset
  Index* dstCol = srcRow + rows;                     // per column i: the destination offset
  T* tile = reinterpret_cast<T*>(dstCol + tileIn);
  const int count = rows << a.inShift;
  const int step = blockDim.x;
  const Lanes read = lanesAlong(tileIn), write = lanesAlong(tileOut);
  // How many elements past a sector boundary the destination starts.
  const int dstHead =
      static_cast<int>(reinterpret_cast<std::uintptr_t>(dst) / sizeof(T) % kSectorUnits);

  for (Index t = blockIdx.x; t < a.tiles; t += gridDim.x) {
    const TileStart<Index> start = startTile(a, t, srcRow, dstCol, kBefore);
    const Index in0 = start.in0, out0 = start.out0;

    const int cols = static_cast<int>(min(static_cast<Index>(tileIn), a.inExtent - in0));
    // Rows along the source's contiguous run; row r of the tile is row out0 - kBefore + r.
    if constexpr (sizeof(T) >= 4) {
      // A thread's column at a time, each of its rows copied into shared memory asynchronously:
      // the whole tile in flight, an element a shared load of its row's offset and a copy.
      const int firstRow =
          kAligned ? static_cast<int>(max(static_cast<Index>(0), kBefore - out0)) : 0;
      const int endRow =
          static_cast<int>(min(static_cast<Index>(rows), a.outExtent - out0 + kBefore));
      int r0 = read.line;
      while (r0 < firstRow) r0 += read.down;  // only the out group's first tile, aligned
      const int n = stepsBelow(r0, endRow, read.downShift);
      const std::uint32_t toStep = read.down * pitch * sizeof(T);
      for (int i = read.first; i < cols; i += read.across) {
        const Index column = in0 + i;
        std::uint32_t to = sharedAddress(tile + r0 * pitch + i);
        const Index* row = srcRow + r0;
#pragma unroll 4
        for (int j = 0; j < n; ++j, to += toStep, row += read.down)
          copyAsync(to, elementAt(src, *row + column));
      }
      copiesDone();
    } else {
      for (int l0 = threadIdx.x; l0 < count; l0 += kInFlight * step) {
        T v[kInFlight];
#pragma unroll
        for (int u = 0; u < kInFlight; ++u) {
          const int l = l0 + u * step, o = l >> a.inShift, i = l & (tileIn - 1);
          if (l < count && out0 + o < a.outExtent && in0 + i < a.inExtent)
            v[u] = src[srcRow[o] + in0 + i];
        }
#pragma unroll
        for (int u = 0; u < kInFlight; ++u) {
          const int l = l0 + u * step, o = l >> a.inShift, i = l & (tileIn - 1);
          if (l < count && out0 + o < a.outExtent && in0 + i < a.inExtent)
            tile[o * pitch + i] = v[u];
        }
      }
    }
    __syncthreads();
    // Columns along the destination's. With aligned stores, the column whose first row lies at
    // destination offset c starts `back(c)` rows before the tile's, on a sector boundary.
    const auto back = [&](Index c) { return static_cast<int>((dstHead + c) & (kBefore - 1)); };
    const Index left = a.outExtent - out0;  // the group's rows from the tile's first
    if constexpr (!kAligned) {
      // A thread's row at a time, along its columns: a column's offset, the element and its
      // store.
      const int n = stepsBelow(write.line, cols, write.downShift);
      for (int k = write.first; k < min(static_cast<Index>(tileOut), left); k += write.across) {
        const Index row = out0 + k;
        const T* from = tile + k * pitch + write.line;
        const Index* col = dstCol + write.line;
#pragma unroll 4
        for (int j = 0; j < n; ++j, from += write.down, col += write.down)
          *elementAt(dst, *col + row) = *from;
      }
    } else {
      // Rows before the group's first are not stored.
      const auto store = [&](int i, int k) {
        const Index c = dstCol[i] + out0;
        const int o = k - back(c);
        if (o >= -out0 && o < left) *elementAt(dst, c + o) = tile[(o + kBefore) * pitch + i];
      };
      // With a column's one row a thread, four columns are unrolled to keep their loads and
      // stores in flight.
      if (write.across == tileOut) {
#pragma unroll 4
        for (int i = write.line; i < cols; i += write.down) store(i, write.first);
      } else {
        for (int i = write.line; i < cols; i += write.down)
          for (int k = write.first; k < tileOut; k += write.across) store(i, k);
      }
    }
    if constexpr (kAligned)
      if (out0 + tileOut >= a.outExtent)
        for (int l = threadIdx.x; l < kBefore << a.inShift; l += step) {
          const int i = l / kBefore, o = tileOut - back(dstCol[i] + out0) + l % kBefore;
          if (o < tileOut && out0 + o < a.outExtent && in0 + i < a.inExtent)
            dst[dstCol[i] + out0 + o] = tile[(o + kBefore) * pitch + i];
        }
    __syncthreads();
  }
}

// The same tile in words of P elements: rows read a word at a time; each thread then takes P
// rows of one word column, transposes them in registers and writes P words, one per column.
template <int P, typename Index>
__global__ void generalTiledWordsKernel(const std::uint32_t* __restrict__ src,
                                        std::uint32_t* __restrict__ dst, const Args<Index> a) {
  extern __shared__ __align__(16) unsigned char shared[];
  const int tileIn = 1 << a.inShift, tileOut = 1 << a.outShift;
  const int wordShift = a.inShift - (P == 4 ? 2 : 1), rowWords = 1 << wordShift;
  const int pitch = rowWords + 1;
  const int blockShift = a.outShift - (P == 4 ? 2 : 1);  // rows of P: tileOut / P of them
  Index* srcRow = reinterpret_cast<Index*>(shared);
  Index* dstCol = srcRow + tileOut;
  std::uint32_t* tile = reinterpret_cast<std::uint32_t*>(dstCol + tileIn);
  const int count = tileOut << wordShift;  // words in the tile
  const int step = blockDim.x;

  for (Index t = blockIdx.x; t < a.tiles; t += gridDim.x) {
    const TileStart<Index> start = startTile(a, t, srcRow, dstCol);
    const Index in0 = start.in0, out0 = start.out0;

    for (int l0 = threadIdx.x; l0 < count; l0 += kInFlight * step) {
      std::uint32_t v[kInFlight];
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) {
        const int l = l0 + u * step, o = l >> wordShift, w = l & (rowWords - 1);
        if (l < count && out0 + o < a.outExtent && in0 + w * P < a.inExtent)
          v[u] = src[(srcRow[o] + in0) / P + w];
      }
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) {
        const int l = l0 + u * step, o = l >> wordShift, w = l & (rowWords - 1);
        if (l < count && out0 + o < a.outExtent && in0 + w * P < a.inExtent)
          tile[o * pitch + w] = v[u];
      }
    }
    __syncthreads();
    for (int l = threadIdx.x; l < (count >> (P == 4 ? 2 : 1)); l += step) {
      const int w = l >> blockShift, ob = l & ((1 << blockShift) - 1), o = ob * P;
      if (out0 + o < a.outExtent && in0 + w * P < a.inExtent) {
        std::uint32_t block[P];
#pragma unroll
        for (int r = 0; r < P; ++r) block[r] = tile[(o + r) * pitch + w];
        transposeInWords<P>(block);
#pragma unroll
        for (int c = 0; c < P; ++c) dst[(dstCol[w * P + c] + out0 + o) / P] = block[c];
      }
    }
    __syncthreads();
  }
}

// The words tile where rows and columns start anywhere (groups of odd extents, sources at any
// offset): every global access is still a 4-byte word. A row is read in the aligned words that
// cover it, each funnel-shifted into place with the next one (the next lane's), so the tile
// holds row-aligned words as the words kernel's does. After the same transpose in registers, a
// column's aligned destination word is put together from two blocks, the lane before's and its
// own; the few elements at a column's ends that fill no whole word are stored one at a time
// afterwards, so the word stores take no branch. `src` and `dst` are the aligned words holding
// the tensors' first elements, `srcHead` and `dstHead` how many elements into them the tensors
// start. Warps iterate whole, since they shuffle.
template <int P, typename Index>
__global__ void generalTiledShiftedKernel(const std::uint32_t* __restrict__ src, int srcHead,
                                          std::uint32_t* __restrict__ dst, int dstHead,
                                          const Args<Index> a) {
  using T = std::conditional_t<P == 4, std::uint8_t, std::uint16_t>;
  constexpr int kBits = 32 / P, kShift = P == 4 ? 2 : 1;
  constexpr unsigned kWarp = 0xffffffffu;
  extern __shared__ __align__(16) unsigned char shared[];
  const int tileIn = 1 << a.inShift, tileOut = 1 << a.outShift;
  const int wordShift = a.inShift - kShift, rowWords = 1 << wordShift, pitch = rowWords + 1;
  const int blockShift = a.outShift - kShift, blocks = 1 << blockShift;
  Index* srcRow = reinterpret_cast<Index*>(shared);
  Index* dstCol = srcRow + tileOut;
  std::uint32_t* tile = reinterpret_cast<std::uint32_t*>(dstCol + tileIn);
  const int lane = threadIdx.x % 32, warpStart = threadIdx.x - lane;
  const int words = tileOut << wordShift, cellsOfBlocks = rowWords << blockShift;
  const int step = blockDim.x;

  for (Index t = blockIdx.x; t < a.tiles; t += gridDim.x) {
    const TileStart<Index> start = startTile(a, t, srcRow, dstCol);
    const Index in0 = start.in0, out0 = start.out0;
    const auto [cols, rows] = tileSides(a, in0, out0);

    for (int l0 = warpStart; l0 < words; l0 += kInFlight * step) {
      std::uint32_t v[kInFlight], next[kInFlight];
      int head[kInFlight];
      // Each lane's aligned word where it holds one of the row's elements, and the word after
      // it where the next lane cannot give it (the row's or the warp's last word).
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) {
        const int l = l0 + lane + u * step, o = l >> wordShift, w = l & (rowWords - 1);
        const bool row = l < words && o < rows;
        const Index s = row ? srcRow[o] + in0 + srcHead : 0;
        const Index at = (s >> kShift) + w;
        head[u] = static_cast<int>(s & (P - 1));
        v[u] = next[u] = 0;
        if (row && w * P - head[u] < cols) v[u] = src[at];
        if (row && (lane == 31 || w == rowWords - 1) && head[u] > 0 && (w + 1) * P - head[u] < cols)
          next[u] = src[at + 1];
      }
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) {
        const int l = l0 + lane + u * step, o = l >> wordShift, w = l & (rowWords - 1);
        const std::uint32_t after = __shfl_down_sync(kWarp, v[u], 1);
        if (lane != 31 && w != rowWords - 1) next[u] = after;
        if (l < words && o < rows && w * P < cols)
          tile[o * pitch + w] = __funnelshift_r(v[u], next[u], head[u] * kBits);
      }
    }
    __syncthreads();
    for (int l0 = warpStart; l0 < cellsOfBlocks; l0 += step) {
      const int l = l0 + lane, w = l >> blockShift, ob = l & (blocks - 1), o = ob * P;
      const bool inside = l < cellsOfBlocks;
      std::uint32_t own[P], before[P];
#pragma unroll
      for (int r = 0; r < P; ++r) own[r] = inside ? tile[(o + r) * pitch + w] : 0;
      transposeInWords<P>(own);
#pragma unroll
      for (int c = 0; c < P; ++c) before[c] = __shfl_up_sync(kWarp, own[c], 1);
      if (inside && lane == 0 && ob > 0) {  // the block before is another warp's
#pragma unroll
        for (int r = 0; r < P; ++r) before[r] = tile[(o - P + r) * pitch + w];
        transposeInWords<P>(before);
      }
#pragma unroll
      for (int c = 0; c < P; ++c) {
        const int i = w * P + c;  // past the tile's columns where the lane is outside it
        const Index d = i < cols ? dstCol[i] + out0 + dstHead : 0;
        const int head = static_cast<int>(d & (P - 1)), first = o - head;
        // Rows o - head to o - head + P - 1: the block before's last `head`, then this one's.
        if (i < cols && first >= 0 && first + P <= rows)
          dst[(d >> kShift) + ob] = __funnelshift_rc(before[c], own[c], (P - head) * kBits);
      }
    }
    // Each column's elements before its first whole word and after its last, one at a time.
    const T* elements = reinterpret_cast<const T*>(tile);
    T* out = reinterpret_cast<T*>(dst);
    for (int l = threadIdx.x; l < 2 * cols; l += step) {
      const int i = l >> 1;
      const Index d = dstCol[i] + out0 + dstHead;
      const int head = static_cast<int>(d & (P - 1));
      const int lead = head > 0 ? min(rows, P - head) : 0, tail = (rows - lead) & (P - 1);
      const int from = l & 1 ? rows - tail : 0, count = l & 1 ? tail : lead;
      for (int k = from; k < from + count; ++k) out[d + k] = elements[k * pitch * P + i];
    }
    __syncthreads();
  }
}

template <typename T, typename Index>
void launchTyped(const GeneralLaunch& l, cudaStream_t stream) {
  auto kernel = generalTiledKernel<T, Index, false>;
  if (l.alignedStores) {
    if constexpr (sizeof(T) >= 4)
      kernel = generalTiledKernel<T, Index, true>;
    else
      throw Error(ErrorKind::Internal, "general tiled permute: aligned stores of " +
                                           std::to_string(sizeof(T)) + "-byte units");
  }
  kernel<<<l.grid, l.block, l.sharedBytes(), stream>>>(static_cast<const T*>(l.src),
                                                       static_cast<T*>(l.dst), argsOf<Index>(l));
  KWB_CHECK_LAUNCH("generalTiledKernel");
}

}  // namespace

bool generalCellsFit(const GeneralTiling& g, int elementBytes, std::int64_t sourceOffsetBytes) {
  if (elementBytes > 2) return false;
  const CellShifts shifts =
      cellShifts(g, elementBytes, static_cast<int>(sourceOffsetBytes % 8) / elementBytes, 0);
  return !shifts.loads && !shifts.stores;
}

CellShifts cellShifts(const GeneralTiling& g, int elementBytes, int srcHead, int dstHead) {
  const int side = cell::side(elementBytes);
  return {g.inExtent % side != 0 || srcHead != 0, g.outExtent % side != 0 || dstHead != 0};
}

bool generalWordsFit(const GeneralTiling& g, int elementBytes, std::int64_t sourceOffsetBytes) {
  if (elementBytes >= 4) return false;
  const int perWord = 4 / elementBytes;
  return g.inExtent % perWord == 0 && g.outExtent % perWord == 0 && sourceOffsetBytes % 4 == 0;
}

void launchGeneralTiled(const GeneralLaunch& l, cudaStream_t stream) {
  if (l.sharedBytes() > kMaxGeneralSharedBytes)
    throw Error(ErrorKind::Internal, "general tiled permute: a tile of " + l.tiling.describe() +
                                         " needs " + std::to_string(l.sharedBytes()) +
                                         " bytes of shared memory");
  if (l.cells) return launchGeneralCells(l, stream);
  if (l.byteRows) return launchGeneralRows(l, stream);
  if (l.words) {
    const auto* src = static_cast<const std::uint32_t*>(l.src);
    auto* dst = static_cast<std::uint32_t*>(l.dst);
    const auto launch = [&](auto kernel, auto args) {
      kernel<<<l.grid, l.block, l.sharedBytes(), stream>>>(src, dst, args);
      KWB_CHECK_LAUNCH("generalTiledWordsKernel");
    };
    if (l.elementBytes == 1)
      return l.index32 ? launch(generalTiledWordsKernel<4, std::int32_t>, argsOf<std::int32_t>(l))
                       : launch(generalTiledWordsKernel<4, std::int64_t>, argsOf<std::int64_t>(l));
    return l.index32 ? launch(generalTiledWordsKernel<2, std::int32_t>, argsOf<std::int32_t>(l))
                     : launch(generalTiledWordsKernel<2, std::int64_t>, argsOf<std::int64_t>(l));
  }
  if (l.shifted) {
    const auto src = tile::wordStart<const std::uint32_t>(l.src, l.elementBytes);
    const auto dst = tile::wordStart<std::uint32_t>(l.dst, l.elementBytes);
    const auto launch = [&](auto kernel, auto args) {
      kernel<<<l.grid, l.block, l.sharedBytes(), stream>>>(src.word, src.head, dst.word, dst.head,
                                                           args);
      KWB_CHECK_LAUNCH("generalTiledShiftedKernel");
    };
    if (l.elementBytes == 1)
      return l.index32
                 ? launch(generalTiledShiftedKernel<4, std::int32_t>, argsOf<std::int32_t>(l))
                 : launch(generalTiledShiftedKernel<4, std::int64_t>, argsOf<std::int64_t>(l));
    return l.index32 ? launch(generalTiledShiftedKernel<2, std::int32_t>, argsOf<std::int32_t>(l))
                     : launch(generalTiledShiftedKernel<2, std::int64_t>, argsOf<std::int64_t>(l));
  }
  withUnit<8>(l.elementBytes, "general tiled permute", [&](auto element) {
    using T = decltype(element);
    if (l.index32) return launchTyped<T, std::int32_t>(l, stream);
    launchTyped<T, std::int64_t>(l, stream);
  });
}

}  // namespace kwb::permute
