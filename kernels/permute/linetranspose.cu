// Permutations of bytes and halves in raw rows and gathered columns (linetranspose.h).
#include <climits>
#include <span>

#include "core/error.h"
#include "kernels/cudacheck.h"
#include "kernels/permute/linetranspose.h"

namespace kwb::permute {
namespace {

// The tile widths a kernel is built for (tile_cols), of bytes and of halves, and the most
// segments each takes: up to 256 threads, 128 bytes a tile row and 64 KiB of shared memory.
constexpr int kLineTileCols[] = {32, 64, 128};
constexpr int kMostSegments[] = {4, 4, 2};
constexpr int kHalfTileCols[] = {32, 64};
constexpr int kMostHalfSegments[] = {4, 4};
constexpr int kLoadedBytes = kLineSegmentBytes + kLineAboveBytes;  // of a column a lane gathers
// A lane's staged column: kLoadedBytes / 4 words, shifted by up to 8 words, and one to spread
// banks.
constexpr int kStageWords = kLoadedBytes / 4 + 9;
constexpr std::size_t kDefaultSharedBytes = 48 * 1024;

// The tile widths built for elements of this size, and the most segments of each.
std::span<const int> tileColsOf(int elementBytes) {
  return elementBytes == 1 ? std::span<const int>(kLineTileCols)
                           : std::span<const int>(kHalfTileCols);
}
std::span<const int> mostSegmentsOf(int elementBytes) {
  return elementBytes == 1 ? std::span<const int>(kMostSegments)
                           : std::span<const int>(kMostHalfSegments);
}

// Shared rows: where a tile holds whole rows (of wholeRowBytes), one run of them, with 16 bytes
// before it, up to 15 of the word holding its start, and as far past its last row as a lane past
// the rows' end gathers; else a tile row's bytes, up to 15 more each side that their covering
// words bring, and the rest of a pitch congruent to the row stride mod 16 (at most 47 more bytes).
// The room then stages each lane's column.
constexpr std::size_t sharedBytesOf(int elementBytes, int cols, int segments, int wholeRowBytes) {
  const std::size_t loadedRows =
      static_cast<std::size_t>((segments * kLineSegmentBytes + kLineAboveBytes) / elementBytes);
  const std::size_t tileRowBytes = static_cast<std::size_t>(cols * elementBytes);
  const std::size_t rows =
      wholeRowBytes > 0 ? 32 + loadedRows * static_cast<std::size_t>(wholeRowBytes) + tileRowBytes
                        : 16 + loadedRows * (tileRowBytes + 47) + 32;
  const std::size_t stage = static_cast<std::size_t>(segments * cols * kStageWords) * 4;
  return rows > stage ? rows : stage;
}

__device__ __forceinline__ void copy16(unsigned sharedAt, const unsigned char* from) {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(sharedAt), "l"(from));
#else
  const uint4 v = *reinterpret_cast<const uint4*>(from);
  asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(sharedAt), "r"(v.x), "r"(v.y),
               "r"(v.z), "r"(v.w));
#endif
}

__device__ __forceinline__ void copiesDone() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;" ::: "memory");
#endif
}

__device__ __forceinline__ unsigned long long addressOf(const void* p) {
  return reinterpret_cast<unsigned long long>(p);
}

// Block b takes matrix b / tilesPerMatrix, and in it the tile at (tile row, tile column) = (t /
// tilesAcross, t % tilesAcross) of t = b % tilesPerMatrix. Source matrices are rows x cols
// elements of E bytes, one after another; in the destination each lies where `matrices` puts it,
// and each of its columns' rows run from where `columns` puts the column. Thread (s, c) =
// (threadIdx.x / COLS, threadIdx.x % COLS) gathers column c of segment s. Offsets along a column
// and a row are in bytes, as the sectors it aligns to are.
template <int E, int COLS, int SEG>
__global__ void __launch_bounds__(COLS* SEG)
    lineTransposeKernel(const unsigned char* __restrict__ src, unsigned char* __restrict__ dst,
                        int rows, int cols, int tilesAcross, int tilesPerMatrix,
                        const LineAxes columns, const LineAxes matrices) {
  constexpr int kSegmentRows = kLineSegmentBytes / E, kAboveRows = kLineAboveBytes / E;
  constexpr int kThreads = COLS * SEG, kTileRows = SEG * kSegmentRows;
  constexpr int kLoadedRows = kTileRows + kAboveRows, kRowBytes = COLS * E;
  constexpr int kRowLanes = kRowBytes / 16;
  extern __shared__ __align__(16) unsigned char tile[];
  const int rowBytes = cols * E, runBytes = rows * E;  // a source row, a destination column
  const long long matrix = static_cast<long long>(rows) * rowBytes;
  src += blockIdx.x / tilesPerMatrix * matrix;
  dst += matrices.offsetOf(static_cast<int>(blockIdx.x / tilesPerMatrix)) * E;
  const int t = static_cast<int>(blockIdx.x % tilesPerMatrix);
  const int x0 = t / tilesAcross * kTileRows, c0 = t % tilesAcross * COLS;
  // Where the thread's column starts in the destination, worked out while the tile loads.
  const int c = static_cast<int>(threadIdx.x) % COLS;
  const long long dcol = columns.offsetOf(c0 + c) * E;
  const int n = min(COLS, cols - c0) * E;  // the tile's bytes of a row
  // Where a tile holds whole rows its rows are one contiguous run, copied as it lies (pitch a
  // row); else each row's covering words, a pitch apart congruent to a row mod 16.
  const bool whole = tilesAcross == 1;
  const int pitch = whole ? rowBytes : kRowBytes + 32 + ((rowBytes - kRowBytes - 32) & 15);

  // Loads, where rows are not whole: kRowLanes lanes a row, each an aligned 16-byte word of it,
  // the first lane also the word past theirs. Row rho lands at tile + 16 + head + rho * pitch +
  // (where it starts in its word), which keeps each word aligned in shared memory as it is in
  // global. The word holding the matrix's last byte is read byte by byte where the matrix ends
  // inside it.
  const unsigned char* first =
      src + static_cast<long long>(x0 - kAboveRows) * rowBytes + static_cast<long long>(c0) * E;
  const unsigned char* end = src + matrix;
  const int head = static_cast<int>(addressOf(first) & 15);
  const auto load = [&](unsigned char* to, const unsigned char* from) {
    if (from + 16 <= end) {
      copy16(static_cast<unsigned>(__cvta_generic_to_shared(to)), from);
    } else {
      for (int j = 0; j < 16 && from + j < end; ++j) to[j] = from[j];
    }
  };
  if (whole) {
    // The words from the one holding the first row's start to the one past the last row's end,
    // a word a thread in turn: each read once, where rows' covering words would share theirs.
    const unsigned char* aligned = first - head;
    const long long lo =
        static_cast<long long>(max(x0 - kAboveRows, 0) - (x0 - kAboveRows)) * rowBytes;
    const long long hi =
        static_cast<long long>(min(x0 + kTileRows, rows) - (x0 - kAboveRows)) * rowBytes;
    const int w1 = static_cast<int>((head + hi + 15) / 16);
    for (int w = static_cast<int>((head + lo) / 16) + static_cast<int>(threadIdx.x); w < w1;
         w += kThreads)
      load(tile + 16 + 16 * w, aligned + 16 * w);
  } else {
    constexpr int kRowsAPass = kThreads / kRowLanes;
    const int k = static_cast<int>(threadIdx.x) % kRowLanes;
    const int rho0 = static_cast<int>(threadIdx.x) / kRowLanes;
#pragma unroll
    for (int i = 0; i < (kLoadedRows + kRowsAPass - 1) / kRowsAPass; ++i) {
      const int rho = rho0 + kRowsAPass * i, x = x0 - kAboveRows + rho;
      if (rho >= kLoadedRows || x < 0 || x >= rows) continue;
      const unsigned char* row = first + static_cast<long long>(rho) * rowBytes;
      const int in = static_cast<int>(addressOf(row) & 15);
      unsigned char* to = tile + 16 + head + rho * pitch - in + 16 * k;
      if (16 * k < in + n) load(to, row - in + 16 * k);
      if (k == 0 && kRowBytes < in + n) load(to + kRowBytes, row - in + kRowBytes);
    }
  }
  copiesDone();
  __syncthreads();

  // Gather: a lane a column of its segment, down the segment's rows and those of kLineAboveBytes
  // above them, 4 bytes to a word.
  const int segment = static_cast<int>(threadIdx.x) / COLS, x0s = x0 + segment * kSegmentRows;
  const unsigned char* column = tile + 16 + head + segment * kSegmentRows * pitch + c * E;
  unsigned stream[kLoadedBytes / 4 + 1];
#pragma unroll
  for (int w = 0; w < kLoadedBytes / 4; ++w) {
    if constexpr (E == 1) {
      const unsigned b0 = column[(4 * w) * pitch], b1 = column[(4 * w + 1) * pitch];
      const unsigned b2 = column[(4 * w + 2) * pitch], b3 = column[(4 * w + 3) * pitch];
      stream[w] = __byte_perm(__byte_perm(b0, b1, 0x0040), __byte_perm(b2, b3, 0x0040), 0x5410);
    } else {
      const unsigned h0 = *reinterpret_cast<const unsigned short*>(column + (2 * w) * pitch);
      const unsigned h1 = *reinterpret_cast<const unsigned short*>(column + (2 * w + 1) * pitch);
      stream[w] = __byte_perm(h0, h1, 0x5410);
    }
  }
  stream[kLoadedBytes / 4] = 0;

  // The column's destination sector at or before row x0s starts `lead` bytes before it: the
  // stream from byte kLineAboveBytes - lead on is the column's, staged shifted to start on a
  // word.
  const int lead = static_cast<int>(addressOf(dst + dcol + x0s * E) & 31);
  const int skip = kLineAboveBytes - lead, words = skip / 4, bits = skip % 4 * 8;
  __syncthreads();  // the tile is read: its room stages the columns
  unsigned* stage =
      reinterpret_cast<unsigned*>(tile) + threadIdx.x * kStageWords + kLineAboveBytes / 4 - words;
#pragma unroll
  for (int i = 0; i < kLoadedBytes / 4; ++i)
    stage[i] = __funnelshift_r(stream[i], stream[i + 1], bits);
  __syncwarp();

  // Stores: 8 lanes a column, 16 bytes each, 4 columns at a time; a segment owns the words from
  // its columns' sector before row x0s up to the next segment's (and, in the last, to the end).
  // A warp stores the columns its lanes staged, all of one segment: column l's is lane l's.
  const int lane = static_cast<int>(threadIdx.x) % 32, warp = static_cast<int>(threadIdx.x) / 32;
  const int c1 = warp * 32 % COLS;  // the warp's first column in its segment
  const int k = lane % 8, stored = x0s < rows ? min(32, n / E - c1) : 0;
  const bool last = x0s + kSegmentRows >= rows;
  const unsigned* staged =
      reinterpret_cast<const unsigned*>(tile) + warp * 32 * kStageWords + kLineAboveBytes / 4;
  for (int first = 0; first < stored; first += 4) {
    const int l = first + lane / 8;
    const long long d = __shfl_sync(0xffffffffu, dcol, l);
    if (l >= stored) continue;
    const int from = x0s * E - static_cast<int>(addressOf(dst + d + x0s * E) & 31);
    for (int word = k; word < kLoadedBytes / 16; word += 8) {
      if (word >= kLineSegmentBytes / 16 && !last) break;
      const int x = from + 16 * word;  // the word's first byte in the column
      const unsigned* s = staged + l * kStageWords + 4 * word;
      const uint4 v = make_uint4(s[0], s[1], s[2], s[3]);
      unsigned char* at = dst + d + x;
      if (x >= 0 && x + 16 <= runBytes) {
        *reinterpret_cast<uint4*>(at) = v;
      } else {  // a column's ends: its own bytes alone, in the widest aligned pieces
        const unsigned long long low = static_cast<unsigned long long>(v.y) << 32 | v.x;
        const unsigned long long high = static_cast<unsigned long long>(v.w) << 32 | v.z;
        for (int j = max(0, -x), e = min(16, runBytes - x); j < e;) {
          const int o = j % 8;
          const unsigned long long bytes = (j < 8 ? low : high) >> (8 * o);
          if (o == 0 && j + 8 <= e) {
            *reinterpret_cast<unsigned long long*>(at + j) = bytes;
            j += 8;
          } else if (o % 4 == 0 && j + 4 <= e) {
            *reinterpret_cast<unsigned*>(at + j) = static_cast<unsigned>(bytes);
            j += 4;
          } else if (o % 2 == 0 && j + 2 <= e) {
            *reinterpret_cast<unsigned short*>(at + j) = static_cast<unsigned short>(bytes);
            j += 2;
          } else {
            at[j++] = static_cast<unsigned char>(bytes);
          }
        }
      }
    }
  }
}

struct LineArgs {
  const unsigned char* src;
  unsigned char* dst;
  int grid, rows, cols, across, perMatrix;
  LineAxes columns, matrices;
};

template <int E, int COLS, int SEG>
void launchWith(const LineArgs& a, std::size_t shared, cudaStream_t stream) {
  const auto kernel = lineTransposeKernel<E, COLS, SEG>;
  if (shared > kDefaultSharedBytes)
    KWB_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(shared)));
  kernel<<<a.grid, COLS * SEG, shared, stream>>>(a.src, a.dst, a.rows, a.cols, a.across,
                                                 a.perMatrix, a.columns, a.matrices);
  KWB_CHECK_LAUNCH("lineTransposeKernel");
}

template <int E, int COLS>
void launchSegments(const LineArgs& a, int segments, std::size_t shared, cudaStream_t stream) {
  switch (segments) {
    case 1: return launchWith<E, COLS, 1>(a, shared, stream);
    case 2: return launchWith<E, COLS, 2>(a, shared, stream);
    case 4:
      if constexpr (COLS * E <= 128 && COLS <= 64) return launchWith<E, COLS, 4>(a, shared, stream);
      break;
    default: break;
  }
  throw Error(ErrorKind::Internal, "line transpose: no kernel for tiles of " +
                                       std::to_string(COLS) + " columns in " +
                                       std::to_string(segments) + " segments");
}

}  // namespace

std::optional<LineLaunch> lineLaunchFor(const Permutation& s) {
  const int rank = static_cast<int>(s.shape.size()), t = s.perm.back();
  if (rank < 2 || t == rank - 1) return std::nullopt;
  const DimensionStrides strides = stridesOf(s);
  LineLaunch l;
  l.rows = s.shape[static_cast<std::size_t>(t)];
  l.cols = 1;
  const auto take = [&](LineAxes& axes, std::int64_t& extent, int d) {
    const std::int64_t size = s.shape[static_cast<std::size_t>(d)];
    if (size > INT_MAX) return false;
    axes.size[axes.rank] = DividerOf<std::int32_t>(static_cast<std::uint32_t>(size));
    axes.stride[axes.rank++] = strides.dst[d];
    extent *= size;
    return true;
  };
  for (int d = rank - 1; d > t; --d)
    if (!take(l.columns, l.cols, d)) return std::nullopt;
  for (int d = t - 1; d >= 0; --d)
    if (!take(l.matrices, l.batch, d)) return std::nullopt;
  return l;
}

int lineTileColsFor(std::int64_t cols, int elementBytes) {
  const std::span<const int> widths = tileColsOf(elementBytes);
  for (const int c : widths)
    if (cols <= c) return c;
  return widths.back();
}

int lineSegmentsFor(std::int64_t batch, std::int64_t rows, std::int64_t cols, int tileCols,
                    int elementBytes) {
  // Rows padded to whole tiles of one and of two segments: two where they pad 5 % more or less.
  const std::int64_t segmentRows = kLineSegmentBytes / elementBytes;
  const std::int64_t one = (rows + segmentRows - 1) / segmentRows, two = (one + 1) / 2 * 2;
  return cols <= tileCols && tileCols * elementBytes <= 64 && one > 1 && 20 * two <= 21 * one &&
                 batch * two / 2 >= kMinTwoSegmentTiles
             ? 2
             : 1;
}

std::optional<LineLaunch> defaultLineLaunch(const Permutation& s, int elementBytes) {
  auto l = lineLaunchFor(s);
  if (!l || (elementBytes != 1 && elementBytes != 2)) return std::nullopt;
  l->elementBytes = elementBytes;
  l->tileCols = lineTileColsFor(l->cols, elementBytes);
  l->segments = lineSegmentsFor(l->batch, l->rows, l->cols, l->tileCols, elementBytes);
  return l;
}

bool lineTileBuilt(int tileCols, int segments, int elementBytes) {
  if (elementBytes != 1 && elementBytes != 2) return false;
  const std::span<const int> widths = tileColsOf(elementBytes);
  for (std::size_t i = 0; i < widths.size(); ++i)
    if (tileCols == widths[i])
      return segments >= 1 && segments <= mostSegmentsOf(elementBytes)[i] &&
             (segments & (segments - 1)) == 0;
  return false;
}

std::size_t lineSharedBytes(const LineLaunch& l) {
  const int wholeRowBytes = l.tilesAcross() == 1 ? static_cast<int>(l.cols) * l.elementBytes : 0;
  return sharedBytesOf(l.elementBytes, l.tileCols, l.segments, wholeRowBytes);
}

bool linesFit(const LineLaunch& l) {
  // Byte offsets along a row or a column, with a tile's rows past its start, and tile indices
  // stay within 32 bits.
  constexpr std::int64_t kMaxSideBytes = std::int64_t{1} << 30;
  return l.rows * l.elementBytes <= kMaxSideBytes && l.cols * l.elementBytes <= kMaxSideBytes &&
         l.tiles() <= INT_MAX;
}

void launchLineTranspose(const LineLaunch& l, cudaStream_t stream) {
  const LineArgs a{static_cast<const unsigned char*>(l.src),
                   static_cast<unsigned char*>(l.dst),
                   static_cast<int>(l.tiles()),
                   static_cast<int>(l.rows),
                   static_cast<int>(l.cols),
                   static_cast<int>(l.tilesAcross()),
                   static_cast<int>(l.tilesAcross() * l.tilesDown()),
                   l.columns,
                   l.matrices};
  const std::size_t shared = lineSharedBytes(l);
  if (l.elementBytes == 1) {
    switch (l.tileCols) {
      case 32: return launchSegments<1, 32>(a, l.segments, shared, stream);
      case 64: return launchSegments<1, 64>(a, l.segments, shared, stream);
      case 128: return launchSegments<1, 128>(a, l.segments, shared, stream);
      default: break;
    }
  } else if (l.elementBytes == 2) {
    switch (l.tileCols) {
      case 32: return launchSegments<2, 32>(a, l.segments, shared, stream);
      case 64: return launchSegments<2, 64>(a, l.segments, shared, stream);
      default: break;
    }
  }
  throw Error(ErrorKind::Internal, "line transpose: no kernel for tiles of " +
                                       std::to_string(l.tileCols) + " columns of " +
                                       std::to_string(l.elementBytes) + "-byte elements");
}

}  // namespace kwb::permute
