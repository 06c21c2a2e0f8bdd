// Tiled transposes through shared memory (OneFlow's BatchTranspose): a block reads a tile with
// coalesced row accesses, and writes it out with coalesced accesses along the other axis, reading
// the tile by column. Without padding those column reads of 4-byte elements all fall in one bank.
#include <cstdint>

#include "core/error.h"
#include "kernels/cudacheck.h"
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

template <typename Index>
__device__ __forceinline__ TileSpot<Index> tileSpot(Index t, Index rows, Index cols, Index tileRows,
                                                    Index tileCols) {
  const Index perMatrix = tileRows * tileCols;
  const Index matrix = t / perMatrix;
  const Index inMatrix = t - matrix * perMatrix;
  const Index tileRow = inMatrix / tileCols;
  return {matrix * rows * cols, tileRow, inMatrix - tileRow * tileCols};
}

// Rows a thread moves per step: their loads are all issued before the first result is stored,
// so each thread keeps several global loads in flight instead of waiting on each in turn.
constexpr int kInFlight = 4;

template <typename T, int Tile, bool Pad, typename Index>
__global__ void tiledTransposeKernel(const T* __restrict__ src, T* __restrict__ dst, Index rows,
                                     Index cols, Index tileRows, Index tileCols, Index tiles) {
  __shared__ T tile[Tile][Tile + (Pad ? 1 : 0)];
  const int step = blockDim.y;
  for (Index t = blockIdx.x; t < tiles; t += gridDim.x) {
    const TileSpot<Index> s = tileSpot(t, rows, cols, tileRows, tileCols);
    const Index x = s.tileCol * Tile + threadIdx.x;
    for (int i0 = threadIdx.y; i0 < Tile; i0 += kInFlight * step) {
      T v[kInFlight];
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) {
        const int i = i0 + u * step;
        const Index y = s.tileRow * Tile + i;
        if (i < Tile && y < rows && x < cols) v[u] = src[s.offset + y * cols + x];
      }
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) {
        const int i = i0 + u * step;
        if (i < Tile && s.tileRow * Tile + i < rows && x < cols) tile[i][threadIdx.x] = v[u];
      }
    }
    __syncthreads();
    const Index outX = s.tileRow * Tile + threadIdx.x;
    for (int i0 = threadIdx.y; i0 < Tile; i0 += kInFlight * step) {
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) {
        const int i = i0 + u * step;
        const Index y = s.tileCol * Tile + i;
        if (i < Tile && y < cols && outX < rows)
          dst[s.offset + y * rows + outX] = tile[threadIdx.x][i];
      }
    }
    __syncthreads();
  }
}

// 16-bit elements two at a time: each thread loads and stores 4 bytes, two neighbours along the
// row it reads and two along the row it writes, so a warp moves 128 bytes per access.
template <int Tile, bool Pad, typename Index>
__global__ void tiledTransposePairsKernel(const std::uint32_t* __restrict__ src,
                                          std::uint32_t* __restrict__ dst, Index rows, Index cols,
                                          Index tileRows, Index tileCols, Index tiles) {
  __shared__ std::uint16_t tile[Tile][Tile + (Pad ? 2 : 0)];
  const int step = blockDim.y;
  const int pair = 2 * threadIdx.x;
  for (Index t = blockIdx.x; t < tiles; t += gridDim.x) {
    const TileSpot<Index> s = tileSpot(t, rows, cols, tileRows, tileCols);
    const Index x = s.tileCol * Tile + pair;
    for (int i0 = threadIdx.y; i0 < Tile; i0 += kInFlight * step) {
      std::uint32_t v[kInFlight];
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) {
        const int i = i0 + u * step;
        const Index y = s.tileRow * Tile + i;
        if (i < Tile && y < rows && x < cols) v[u] = src[(s.offset + y * cols + x) / 2];
      }
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) {
        const int i = i0 + u * step;
        if (i < Tile && s.tileRow * Tile + i < rows && x < cols) {
          tile[i][pair] = static_cast<std::uint16_t>(v[u]);
          tile[i][pair + 1] = static_cast<std::uint16_t>(v[u] >> 16);
        }
      }
    }
    __syncthreads();
    const Index outX = s.tileRow * Tile + pair;
    for (int i0 = threadIdx.y; i0 < Tile; i0 += kInFlight * step) {
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) {
        const int i = i0 + u * step;
        const Index y = s.tileCol * Tile + i;
        if (i < Tile && y < cols && outX < rows)
          dst[(s.offset + y * rows + outX) / 2] =
              tile[pair][i] | (static_cast<std::uint32_t>(tile[pair + 1][i]) << 16);
      }
    }
    __syncthreads();
  }
}

template <typename Index, typename Kernel, typename T>
void launchWith(Kernel kernel, const TiledLaunch& l, const T* src, T* dst, cudaStream_t stream) {
  const dim3 block(l.pairs ? l.tile / 2 : l.tile, l.rowsPerBlock);
  const Index tileRows = static_cast<Index>((l.rows + l.tile - 1) / l.tile);
  const Index tileCols = static_cast<Index>((l.cols + l.tile - 1) / l.tile);
  kernel<<<l.grid, block, 0, stream>>>(src, dst, static_cast<Index>(l.rows),
                                       static_cast<Index>(l.cols), tileRows, tileCols,
                                       static_cast<Index>(l.tiles()));
  KWB_CHECK_LAUNCH("tiledTransposeKernel");
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

template <int Tile>
void launchTile(const TiledLaunch& l, cudaStream_t stream) {
  if (l.padding)
    return l.index32 ? launchTyped<Tile, true, std::int32_t>(l, stream)
                     : launchTyped<Tile, true, std::int64_t>(l, stream);
  return l.index32 ? launchTyped<Tile, false, std::int32_t>(l, stream)
                   : launchTyped<Tile, false, std::int64_t>(l, stream);
}

}  // namespace

void launchTiledTranspose(const TiledLaunch& l, cudaStream_t stream) {
  switch (l.tile) {
    case 16: return launchTile<16>(l, stream);
    case 32: return launchTile<32>(l, stream);
    case 64: return launchTile<64>(l, stream);
    default: break;
  }
  throw Error(ErrorKind::Internal,
              "tiled transpose: no kernel for tiles of " + std::to_string(l.tile));
}

}  // namespace kwb::permute
