// Tiled transposes through shared memory (OneFlow's BatchTranspose): a block reads a tile with
// coalesced row accesses, and writes it out with coalesced accesses along the other axis, reading
// the tile by column. Without padding those column reads of 4-byte elements all fall in one bank.
#include <cstdint>
#include <type_traits>

#include "core/error.h"
#include "kernels/cudacheck.h"
#include "kernels/permute/registertranspose.cuh"
#include "kernels/permute/tiledtranspose.h"
#include "kernels/units.cuh"

namespace kwb::permute {
namespace {

template <typename Index>
struct TileSpot {
  Index offset;  // the matrix's first element
  Index tileRow;
  Index tileCol;
};

// Tile t of a batch of matrices, each matrix's tiles along its rows (the source's order) or down
// its columns (the destination's).
template <typename Index>
__device__ __forceinline__ TileSpot<Index> tileSpot(Index t, Index rows, Index cols, Index tileRows,
                                                    Index tileCols, bool byDestination) {
  const Index perMatrix = tileRows * tileCols;
  const Index matrix = t / perMatrix;
  const Index inMatrix = t - matrix * perMatrix;
  const Index along = byDestination ? tileRows : tileCols;
  const Index major = inMatrix / along, minor = inMatrix - major * along;
  return byDestination ? TileSpot<Index>{matrix * rows * cols, minor, major}
                       : TileSpot<Index>{matrix * rows * cols, major, minor};
}

// Rows a thread moves per step: their loads are all issued before the first result is stored,
// so each thread keeps several global loads in flight instead of waiting on each in turn. The
// plain kernel takes all 8 rows a thread has of auto's tiles (64, with 8 rows of threads) at
// once: 2-D and batch transposes moved 1.00-1.04x as fast as with 4 (H200). Aligned stores read
// 0.92-0.98x with 8, and keep 4.
constexpr int kInFlight = 4;
constexpr int kPlainInFlight = 8;

template <typename T, int Tile, bool Pad, typename Index>
__global__ void tiledTransposeKernel(const T* __restrict__ src, T* __restrict__ dst, Index rows,
                                     Index cols, Index tileRows, Index tileCols, Index tiles,
                                     bool byDestination) {
  __shared__ T tile[Tile][Tile + (Pad ? 1 : 0)];
  const int step = blockDim.y;
  for (Index t = blockIdx.x; t < tiles; t += gridDim.x) {
    const TileSpot<Index> s = tileSpot(t, rows, cols, tileRows, tileCols, byDestination);
    const Index x = s.tileCol * Tile + threadIdx.x;
    for (int i0 = threadIdx.y; i0 < Tile; i0 += kPlainInFlight * step) {
      T v[kPlainInFlight];
#pragma unroll
      for (int u = 0; u < kPlainInFlight; ++u) {
        const int i = i0 + u * step;
        const Index y = s.tileRow * Tile + i;
        if (i < Tile && y < rows && x < cols) v[u] = src[s.offset + y * cols + x];
      }
#pragma unroll
      for (int u = 0; u < kPlainInFlight; ++u) {
        const int i = i0 + u * step;
        if (i < Tile && s.tileRow * Tile + i < rows && x < cols) tile[i][threadIdx.x] = v[u];
      }
    }
    __syncthreads();
    const Index outX = s.tileRow * Tile + threadIdx.x;
    for (int i0 = threadIdx.y; i0 < Tile; i0 += kPlainInFlight * step) {
#pragma unroll
      for (int u = 0; u < kPlainInFlight; ++u) {
        const int i = i0 + u * step;
        const Index y = s.tileCol * Tile + i;
        if (i < Tile && y < cols && outX < rows)
          dst[s.offset + y * rows + outX] = tile[threadIdx.x][i];
      }
    }
    __syncthreads();
  }
}

// Aligned stores' last step: one destination row's kAlignedTall windows of Window units from a
// tall tile, `at(r)` the row's unit at place r of the tile, whose top is unit `top` of the row.
// The row's shift is worked out once: each lane's unit of the window above, past the shift.
template <int Window, typename T, typename Index, typename At>
__device__ __forceinline__ void storeAlignedRow(T* dst, Index rowStart, Index dstShift, int lane,
                                                Index top, Index units, At at) {
  T* row = dst + rowStart;
  const int r0 = Window + lane - static_cast<int>((dstShift + rowStart) & (Window - 1));
#pragma unroll
  for (int w = 0; w < TiledLaunch::kAlignedTall; ++w) {
    const int r = r0 + w * Window;
    const Index out = top + r;
    if (out >= 0 && out < units) row[out] = at(r);
  }
}

// Tiles whose stores start on tile-wide boundaries of the destination. Where destination rows
// (the source's columns) do not start on 32-byte sectors, each warp's store of its part of a
// tile row touches a sector more than it fills, and every sector at a tile's edge is written
// twice, by two blocks: on an H100 929 x 18048 f32 took 29 % longer than 928 x 18048, misaligned
// loads (928 x 18059) 2 %. Here a block reads Tall tiles down a column and the tile above them,
// and writes each destination row's Tall tile-wide windows that end in them, the rows before a
// window's shift taken from the tile above: a quarter more reads, from L2, for aligned stores.
template <typename T, int Tile, bool Pad, typename Index>
__global__ void tiledTransposeAlignedKernel(const T* __restrict__ src, T* __restrict__ dst,
                                            Index rows, Index cols, Index tallRows, Index tileCols,
                                            Index tiles, bool byDestination, Index dstShift) {
  constexpr int kTall = TiledLaunch::kAlignedTall, kRows = (kTall + 1) * Tile;
  __shared__ T tall[kRows][Tile + (Pad ? 1 : 0)];
  const int step = blockDim.y, tx = threadIdx.x;
  for (Index t = blockIdx.x; t < tiles; t += gridDim.x) {
    const TileSpot<Index> s = tileSpot(t, rows, cols, tallRows, tileCols, byDestination);
    const Index x = s.tileCol * Tile + tx;
    const Index top = (s.tileRow * kTall - 1) * Tile;  // the source row at the tile's top
    const T* column = src + s.offset + x;
    for (int i0 = threadIdx.y; i0 < kRows; i0 += kInFlight * step) {
      T v[kInFlight];
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) {
        const int i = i0 + u * step;
        const Index y = top + i;
        if (i < kRows && y >= 0 && y < rows && x < cols) v[u] = column[y * cols];
      }
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) {
        const int i = i0 + u * step;
        const Index y = top + i;
        if (i < kRows && y >= 0 && y < rows && x < cols) tall[i][tx] = v[u];
      }
    }
    __syncthreads();
    // A thread's destination rows: each one's shift once, then its Tall windows.
    for (int i = threadIdx.y; i < Tile; i += step) {
      const Index y = s.tileCol * Tile + i;
      if (y >= cols) break;
      storeAlignedRow<Tile>(dst, s.offset + y * rows, dstShift, tx, top, rows,
                            [&](int r) { return tall[r][i]; });
    }
    __syncthreads();
  }
}

// 16-bit elements as 2 x 2 blocks: a thread loads a 4-byte pair from each of two neighbouring
// rows, transposes the block in registers (two byte permutes) and keeps it in shared memory as
// one 8-byte element of a tile of blocks, transposed; on the way out it stores a 4-byte pair to
// each of two neighbouring output rows. Every global access of a warp is 128 bytes, as in the
// 4-byte kernel, and with padding the tile's 8-byte elements see no bank conflicts either way.
// Keeping single halves in the tile instead read each pair back in two 2-byte reads, two of a
// warp's threads per bank: 0.918 of the copy ceiling for 8192 x 8192 f16 on an H100.
template <int Tile, bool Pad, typename Index>
__global__ void tiledTransposePairsKernel(const std::uint32_t* __restrict__ src,
                                          std::uint32_t* __restrict__ dst, Index rows, Index cols,
                                          Index tileRows, Index tileCols, Index tiles,
                                          bool byDestination) {
  constexpr int kPairs = Tile / 2;
  __shared__ uint2 tile[kPairs][kPairs + (Pad ? 1 : 0)];
  const int step = blockDim.y;
  const Index rowWords = cols / 2;
  const Index outRowWords = rows / 2;
  for (Index t = blockIdx.x; t < tiles; t += gridDim.x) {
    const TileSpot<Index> s = tileSpot(t, rows, cols, tileRows, tileCols, byDestination);
    const Index base = s.offset / 2;                   // rows and cols are even
    const Index x = s.tileCol * kPairs + threadIdx.x;  // the source's column pair
    for (int j0 = threadIdx.y; j0 < kPairs; j0 += kInFlight * step) {
      std::uint32_t upper[kInFlight], lower[kInFlight];
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) {
        const int j = j0 + u * step;
        const Index y = s.tileRow * Tile + 2 * j;  // the block's upper row
        if (j < kPairs && y < rows && x < rowWords) {
          upper[u] = src[base + y * rowWords + x];
          lower[u] = src[base + (y + 1) * rowWords + x];
        }
      }
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) {
        const int j = j0 + u * step;
        if (j < kPairs && s.tileRow * Tile + 2 * j < rows && x < rowWords)
          tile[threadIdx.x][j] = make_uint2(__byte_perm(upper[u], lower[u], 0x5410),
                                            __byte_perm(upper[u], lower[u], 0x7632));
      }
    }
    __syncthreads();
    const Index outX = s.tileRow * kPairs + threadIdx.x;  // the destination's column pair
    for (int j0 = threadIdx.y; j0 < kPairs; j0 += kInFlight * step) {
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) {
        const int j = j0 + u * step;
        const Index c = s.tileCol * Tile + 2 * j;  // the destination's upper row
        if (j < kPairs && c < cols && outX < outRowWords) {
          const uint2 block = tile[j][threadIdx.x];
          dst[base + c * outRowWords + outX] = block.x;
          dst[base + (c + 1) * outRowWords + outX] = block.y;
        }
      }
    }
    __syncthreads();
  }
}

// A cell's row (cell::rowBytes).
template <int E>
using CellRow = std::conditional_t<E == 8, uint4, uint2>;

// A cell of two rows of two doubles transposed: each row's second double swaps with the other's
// first.
__device__ __forceinline__ void transposeCellRows(uint4 (&r)[2]) {
  const uint4 upper = r[0], lower = r[1];
  r[0] = make_uint4(upper.x, upper.y, lower.x, lower.y);
  r[1] = make_uint4(upper.z, upper.w, lower.z, lower.w);
}
template <int N>
__device__ __forceinline__ void transposeCellRows(uint2 (&r)[N]) {
  transposeInRows<N / 2>(r);
}

// Elements in cells of 8-byte rows: 8 x 8 bytes, 4 x 4 halves, 2 x 2 floats, and of 16-byte ones,
// 2 x 2 doubles (those take no permutes, and twice the bytes of single elements in flight). A
// block is A x 16 threads; a thread loads the rows of S cells one above the other (a warp: 256
// bytes of source rows at a time, 512 of doubles), transposes each in registers and keeps its
// rows, now the destination's, in the tile; then it stores destination rows of other cells, a
// warp again 256 (512) bytes at a time. Every global access is a row wide, half the
// instructions of the pairs kernel, and S cells keep S times the bytes of one in flight. The
// tile holds each destination row's words with their order XOR-ed by the cell's column, so
// that neither side's 8-byte shared accesses conflict.
template <int E, int A, int S, typename Index>
__global__ void __launch_bounds__(A* cell::kThreadRows)
    tiledTransposeCellsKernel(const CellRow<E>* __restrict__ src, CellRow<E>* __restrict__ dst,
                              Index rows, Index cols, Index tileRows, Index tileCols, Index tiles,
                              bool byDestination) {
  using Row = CellRow<E>;
  constexpr int kDown = cell::kThreadRows, kSide = sizeof(Row) / E;  // cell::side
  constexpr int kTileCols = A * kSide, kTileRows = kDown * S * kSide;
  constexpr int kRowWords = kDown * S;  // a destination row's words in the tile
  __shared__ Row tile[kTileCols][kRowWords];
  const Index rowWords = cols / kSide, outRowWords = rows / kSide;  // whole cells
  const int across = threadIdx.x % A, down = threadIdx.x / A;
  // On the way out: word outAcross (+ kDown * j) of the destination rows of cell column outDown.
  const int outAcross = threadIdx.x % kDown, outDown = threadIdx.x / kDown;
  for (Index t = blockIdx.x; t < tiles; t += gridDim.x) {
    const TileSpot<Index> s = tileSpot(t, rows, cols, tileRows, tileCols, byDestination);
    const Index base = s.offset / kSide;
    // The source cells (down * S + j, across): kSide rows of one word each.
    const Index word = s.tileCol * A + across;
    Row cell[S][kSide];
#pragma unroll
    for (int j = 0; j < S; ++j) {
      const Index row = s.tileRow * kTileRows + (down * S + j) * kSide;
      if (row < rows && word < rowWords) {
#pragma unroll
        for (int k = 0; k < kSide; ++k) cell[j][k] = src[base + (row + k) * rowWords + word];
      }
    }
#pragma unroll
    for (int j = 0; j < S; ++j) {
      if (s.tileRow * kTileRows + (down * S + j) * kSide < rows && word < rowWords) {
        transposeCellRows(cell[j]);
#pragma unroll
        for (int k = 0; k < kSide; ++k)
          tile[across * kSide + k][(down * S + j) ^ (across % kDown)] = cell[j][k];
      }
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kSide; ++k) {
      const int q = outDown * kSide + k;
      const Index outRow = s.tileCol * kTileCols + q;
#pragma unroll
      for (int j = 0; j < S; ++j) {
        const int w = outAcross + kDown * j;
        const Index outWord = s.tileRow * kRowWords + w;
        if (outRow < cols && outWord < outRowWords)
          dst[base + outRow * outRowWords + outWord] = tile[q][w ^ (outDown % kDown)];
      }
    }
    __syncthreads();
  }
}

// Cells with aligned stores, for destination rows that start on a word but not on a sector: the
// aligned kernel above in words, each cell transposed in registers on the way in: 8-byte words
// of 8 x 8 bytes, 4 x 4 halves or 2 x 2 floats, or 4-byte words of 2 x 2 halves (pairs). A block
// takes 64 destination rows; a tile is kAlignedTall windows of 128 bytes of each, and the window
// above them. The tile's columns are the destination rows, each cell's rows rotated by its place
// across so that the writes of the lanes sharing a bank phase fall in distinct banks.
__device__ __forceinline__ void transposeCell(std::uint32_t (&cell)[2]) {
  const std::uint32_t upper = cell[0], lower = cell[1];  // pairs: rows of two halves
  cell[0] = __byte_perm(upper, lower, 0x5410);
  cell[1] = __byte_perm(upper, lower, 0x7632);
}
template <int N>
__device__ __forceinline__ void transposeCell(uint2 (&cell)[N]) {
  transposeInRows<N / 2>(cell);
}

template <typename Word, int Side, typename Index>
__global__ void __launch_bounds__(256)
    tiledTransposeAlignedCellsKernel(const Word* __restrict__ src, Word* __restrict__ dst,
                                     Index rows, Index cols, Index tallRows, Index tileCols,
                                     Index tiles, bool byDestination, Index dstShift) {
  constexpr int kRowsOut = TiledLaunch::kAlignedCellRows, kAcross = kRowsOut / Side;
  constexpr int kWindow = TiledLaunch::kAlignedWindowBytes / sizeof(Word);
  constexpr int kTall = TiledLaunch::kAlignedTall, kWords = (kTall + 1) * kWindow;
  // Cells across whose columns share a bank in one phase (16 lanes of 8 bytes, 32 of 4).
  constexpr int kRotate = kWindow / Side;
  __shared__ Word tall[kWords][kRowsOut + 1];
  const Index rowWords = cols / Side, outRowWords = rows / Side;  // whole cells
  for (Index t = blockIdx.x; t < tiles; t += gridDim.x) {
    const TileSpot<Index> s = tileSpot(t, rows, cols, tallRows, tileCols, byDestination);
    const Index base = s.offset / Side;
    const Index top = (s.tileRow * kTall - 1) * kWindow;  // the cell row at the tile's top
    for (int c = threadIdx.x; c < kWords * kAcross; c += blockDim.x) {
      const int word = c / kAcross, across = c - word * kAcross;
      const Index cellRow = top + word, column = s.tileCol * kAcross + across;
      if (cellRow < 0 || cellRow >= outRowWords || column >= rowWords) continue;
      Word cell[Side];
#pragma unroll
      for (int k = 0; k < Side; ++k) cell[k] = src[base + (cellRow * Side + k) * rowWords + column];
      transposeCell(cell);
      const int rotate = (across / kRotate) & (Side - 1);
#pragma unroll
      for (int k = 0; k < Side; ++k) tall[word][across * Side + (k ^ rotate)] = cell[k];
    }
    __syncthreads();
    const int lane = threadIdx.x % kWindow;
    for (int q = threadIdx.x / kWindow; q < kRowsOut; q += blockDim.x / kWindow) {
      const Index y = s.tileCol * kRowsOut + q;  // the destination row
      if (y >= cols) break;
      const int across = q / Side;
      const int column = across * Side + ((q % Side) ^ ((across / kRotate) & (Side - 1)));
      storeAlignedRow<kWindow>(dst, base + y * outRowWords, dstShift, lane, top, outRowWords,
                               [&](int r) { return tall[r][column]; });
    }
    __syncthreads();
  }
}

// Launches a tiled kernel on `l`'s tiles, with `extra` arguments after the tiles' count and order.
template <typename Index, typename Kernel, typename T, typename... Extra>
void launchWith(Kernel kernel, const TiledLaunch& l, const T* src, T* dst, cudaStream_t stream,
                Extra... extra) {
  const dim3 block = l.cells || (l.pairs && l.alignedStores)
                         ? dim3(l.threadsPerBlock())
                         : dim3(l.pairs ? l.tile / 2 : l.tile, l.rowsPerBlock);
  kernel<<<l.grid, block, 0, stream>>>(
      src, dst, static_cast<Index>(l.rows), static_cast<Index>(l.cols),
      static_cast<Index>(l.tallRows()), static_cast<Index>(l.tileCols()),
      static_cast<Index>(l.tiles()), l.order == TileOrder::Destination, extra...);
  KWB_CHECK_LAUNCH("tiledTransposeKernel");
}

// Aligned stores' shift: how many units of `Word` into its window the destination starts.
template <typename Word, typename Index>
Index windowShift(const TiledLaunch& l, int window) {
  return static_cast<Index>((reinterpret_cast<std::uintptr_t>(l.dst) / sizeof(Word)) % window);
}

template <typename Index>
void launchCells(const TiledLaunch& l, cudaStream_t stream) {
  // A kernel for every shape whose tile fits a block's shared memory.
  bool launched = false;
  const auto shaped = [&]<int E, int A, int S>() {
    if constexpr (cell::tileBytes(E, A, S) <= cell::kMaxTileBytes) {
      if (launched || l.cellsAcross != A || l.cellsPerThread != S) return;
      launchWith<Index>(tiledTransposeCellsKernel<E, A, S, Index>, l,
                        static_cast<const CellRow<E>*>(l.src), static_cast<CellRow<E>*>(l.dst),
                        stream);
      launched = true;
    }
  };
  const auto across = [&]<int E, int A>() {
    shaped.template operator()<E, A, 1>();
    shaped.template operator()<E, A, 2>();
    shaped.template operator()<E, A, 4>();
  };
  const auto sized = [&]<int E>() {
    across.template operator()<E, 16>();
    across.template operator()<E, 32>();
  };
  switch (l.elementBytes) {
    case 1: sized.template operator()<1>(); break;
    case 2: sized.template operator()<2>(); break;
    case 4: sized.template operator()<4>(); break;
    case 8: sized.template operator()<8>(); break;
    default: break;
  }
  if (!launched)
    throw Error(ErrorKind::Internal, "tiled transpose: no kernel for cells of " +
                                         std::to_string(l.elementBytes) + "-byte elements, " +
                                         std::to_string(l.cellsAcross) + " across and " +
                                         std::to_string(l.cellsPerThread) + " a thread");
}

template <int Tile, bool Pad, typename Index>
void launchAligned(const TiledLaunch& l, cudaStream_t stream) {
  withUnit<8>(l.elementBytes, "tiled transpose", [&](auto element) {
    using T = decltype(element);
    launchWith<Index>(tiledTransposeAlignedKernel<T, Tile, Pad, Index>, l,
                      static_cast<const T*>(l.src), static_cast<T*>(l.dst), stream,
                      windowShift<T, Index>(l, Tile));
  });
}

template <int Tile, bool Pad, typename Index>
void launchTyped(const TiledLaunch& l, cudaStream_t stream) {
  if (l.pairs)
    return launchWith<Index>(tiledTransposePairsKernel<Tile, Pad, Index>, l,
                             static_cast<const std::uint32_t*>(l.src),
                             static_cast<std::uint32_t*>(l.dst), stream);
  withUnit<8>(l.elementBytes, "tiled transpose", [&](auto element) {
    using T = decltype(element);
    launchWith<Index>(tiledTransposeKernel<T, Tile, Pad, Index>, l, static_cast<const T*>(l.src),
                      static_cast<T*>(l.dst), stream);
  });
}

// Tiles of Tile, with stores on the tile or aligned, in the padding and index width `l` asks for.
template <int Tile, bool Aligned>
void launchTile(const TiledLaunch& l, cudaStream_t stream) {
  const auto typed = [&]<bool Pad, typename Index>() {
    if constexpr (Aligned)
      launchAligned<Tile, Pad, Index>(l, stream);
    else
      launchTyped<Tile, Pad, Index>(l, stream);
  };
  if (l.padding)
    return l.index32 ? typed.template operator()<true, std::int32_t>()
                     : typed.template operator()<true, std::int64_t>();
  return l.index32 ? typed.template operator()<false, std::int32_t>()
                   : typed.template operator()<false, std::int64_t>();
}

template <typename Index>
void launchAlignedCells(const TiledLaunch& l, cudaStream_t stream) {
  const auto with = [&](auto kernel, auto word) {
    using Word = decltype(word);
    launchWith<Index>(kernel, l, static_cast<const Word*>(l.src), static_cast<Word*>(l.dst), stream,
                      windowShift<Word, Index>(l, TiledLaunch::kAlignedWindowBytes / sizeof(Word)));
  };
  if (l.pairs)
    return with(tiledTransposeAlignedCellsKernel<std::uint32_t, 2, Index>, std::uint32_t{});
  if (l.elementBytes == 1) return with(tiledTransposeAlignedCellsKernel<uint2, 8, Index>, uint2{});
  if (l.elementBytes == 2) return with(tiledTransposeAlignedCellsKernel<uint2, 4, Index>, uint2{});
  if (l.elementBytes == 4) return with(tiledTransposeAlignedCellsKernel<uint2, 2, Index>, uint2{});
  throw Error(ErrorKind::Internal, "tiled transpose: no aligned cells of " +
                                       std::to_string(l.elementBytes) + "-byte elements");
}

}  // namespace

void launchTiledTranspose(const TiledLaunch& l, cudaStream_t stream) {
  if (l.alignedStores && (l.cells || l.pairs))
    return l.index32 ? launchAlignedCells<std::int32_t>(l, stream)
                     : launchAlignedCells<std::int64_t>(l, stream);
  if (l.alignedStores) {
    if (l.tile == 16) return launchTile<16, true>(l, stream);
    if (l.tile == 32) return launchTile<32, true>(l, stream);
    throw Error(ErrorKind::Internal, "tiled transpose: aligned stores take tiles of 16 or 32");
  }
  if (l.cells)
    return l.index32 ? launchCells<std::int32_t>(l, stream) : launchCells<std::int64_t>(l, stream);
  switch (l.tile) {
    case 16: return launchTile<16, false>(l, stream);
    case 32: return launchTile<32, false>(l, stream);
    case 64: return launchTile<64, false>(l, stream);
    default: break;
  }
  throw Error(ErrorKind::Internal,
              "tiled transpose: no kernel for tiles of " + std::to_string(l.tile));
}

}  // namespace kwb::permute
