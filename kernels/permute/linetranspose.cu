// Permutations of bytes and halves in raw rows and gathered columns (linetranspose.h).
#include <algorithm>
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

// Rows a tile of these segments loads: theirs and those of kLineAboveBytes above them.
constexpr std::size_t loadedRowsOf(int elementBytes, int segments) {
  return static_cast<std::size_t>((segments * kLineSegmentBytes + kLineAboveBytes) / elementBytes);
}

// A block's shared memory: its loaded rows, whose room then stages each thread's column.
constexpr std::size_t withStage(std::size_t rows, std::int64_t threads) {
  const auto stage = static_cast<std::size_t>(threads * kStageWords) * 4;
  return rows > stage ? rows : stage;
}

// Shared rows, where a tile cuts rows: a tile row's bytes, up to 15 more each side that their
// covering words bring, and the rest of a pitch congruent to the row stride mod 16 (at most 47
// more bytes), with 16 before the first and 32 past the last.
constexpr std::size_t tileSharedBytes(int elementBytes, int cols, int segments) {
  return withStage(16 +
                       loadedRowsOf(elementBytes, segments) *
                           (static_cast<std::size_t>(cols * elementBytes) + 47) +
                       32,
                   std::int64_t{segments} * cols);
}

// Shared rows, where a tile holds whole rows of rowBytes: one run of them, with 16 bytes before
// it, up to 15 of the word holding its start, up to 30 past its end that the last word copied
// brings, and as far past its last row as a segment's last lane gathers (laneBytes, its lanes'
// bytes of a row, past the row's start).
std::size_t rowsSharedBytes(int elementBytes, std::int64_t rowBytes, std::int64_t laneBytes,
                            int segments, std::int64_t threads) {
  return withStage(
      48 + (loadedRowsOf(elementBytes, segments) - 1) * static_cast<std::size_t>(rowBytes) +
          static_cast<std::size_t>(std::max(rowBytes, laneBytes)),
      threads);
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

// A lane's column as a stream of words, gathered down its segment's rows and those of
// kLineAboveBytes above them from `column`, rows `pitch` bytes apart: 4 bytes to a word.
template <int E>
__device__ __forceinline__ void gatherColumn(const unsigned char* column, int pitch,
                                             unsigned (&stream)[kLoadedBytes / 4 + 1]) {
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
}

// Stages a gathered column in its slot of the block's room. The column's destination sector at
// or before its segment's first row starts `lead` bytes before that row: the stream from byte
// kLineAboveBytes - lead on is the column's, staged shifted to start on a word.
__device__ __forceinline__ void stageColumn(const unsigned (&stream)[kLoadedBytes / 4 + 1],
                                            unsigned* room, int slot, int lead) {
  const int skip = kLineAboveBytes - lead, words = skip / 4, bits = skip % 4 * 8;
  unsigned* stage = room + slot * kStageWords + kLineAboveBytes / 4 - words;
#pragma unroll
  for (int i = 0; i < kLoadedBytes / 4; ++i)
    stage[i] = __funnelshift_r(stream[i], stream[i + 1], bits);
}

// Stores the columns a warp's first `lanes` lanes staged: 8 lanes a column, 16 bytes each, 4
// columns at a time. Lane l's column starts at dcol in the destination, its segment at row x0s
// (none where x0s is past the rows), and is staged at `staged` + l * kStageWords. A segment owns
// the words from its columns' sector before row x0s up to the next segment's (and, in the last,
// to the end). MIXED: the warp's lanes may be of different segments.
template <int E, bool MIXED>
__device__ __forceinline__ void storeColumns(unsigned char* dst, const unsigned* staged,
                                             long long dcol, int x0s, int lanes, int rows) {
  constexpr int kSegmentRows = kLineSegmentBytes / E;
  const int runBytes = rows * E;  // a destination column
  const int lane = static_cast<int>(threadIdx.x) % 32, k = lane % 8;
  for (int first = 0; first < lanes; first += 4) {
    const int l = first + lane / 8;
    const long long d = __shfl_sync(0xffffffffu, dcol, l);
    const int xs = MIXED ? __shfl_sync(0xffffffffu, x0s, l) : x0s;
    if (l >= lanes || xs >= rows) continue;
    const bool last = xs + kSegmentRows >= rows;
    const int from = xs * E - static_cast<int>(addressOf(dst + d + xs * E) & 31);
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

// Copies 16 bytes at `from` to `to` in shared memory, byte by byte where `end` (the matrix's end)
// falls inside them.
__device__ __forceinline__ void loadWord(unsigned char* to, const unsigned char* from,
                                         const unsigned char* end) {
  if (from + 16 <= end) {
    copy16(static_cast<unsigned>(__cvta_generic_to_shared(to)), from);
  } else {
    for (int j = 0; j < 16 && from + j < end; ++j) to[j] = from[j];
  }
}

// Loads a tile of whole rows, tileRows of them from row x0 and the rows of kLineAboveBytes above,
// as the one contiguous run they are: the 16-byte words from the one holding the first row's
// start (`aligned`, `head` bytes before it) to the one past the last row's end, a word a thread in
// turn of `threads`, each read once. Word w lands at tile + 16 + 16 w.
template <int E>
__device__ __forceinline__ void loadRun(unsigned char* tile, const unsigned char* aligned, int head,
                                        int x0, int tileRows, int rows, int rowBytes,
                                        const unsigned char* end, int threads) {
  constexpr int kAboveRows = kLineAboveBytes / E;
  const long long lo =
      static_cast<long long>(max(x0 - kAboveRows, 0) - (x0 - kAboveRows)) * rowBytes;
  const long long hi =
      static_cast<long long>(min(x0 + tileRows, rows) - (x0 - kAboveRows)) * rowBytes;
  const int w1 = static_cast<int>((head + hi + 15) / 16);
  for (int w = static_cast<int>((head + lo) / 16) + static_cast<int>(threadIdx.x); w < w1;
       w += threads)
    loadWord(tile + 16 + 16 * w, aligned + 16 * w, end);
}

// Tiles of COLS lanes a segment. Block b takes matrix b / tilesPerMatrix, and in it the tile at
// (tile row, tile column) = (t / tilesAcross, t % tilesAcross) of t = b % tilesPerMatrix. Source
// matrices are rows x cols elements of E bytes, one after another; in the destination each lies
// where `matrices` puts it, and each of its columns' rows run from where `columns` puts the column.
// Thread (s, c) = (threadIdx.x / COLS, threadIdx.x % COLS) gathers column c of segment s. Offsets
// along a column and a row are in bytes, as the sectors it aligns to are.
template <int E, int COLS, int SEG>
__global__ void __launch_bounds__(COLS* SEG)
    lineTilesKernel(const unsigned char* __restrict__ src, unsigned char* __restrict__ dst,
                    int rows, int cols, int tilesAcross, int tilesPerMatrix, const LineAxes columns,
                    const LineAxes matrices) {
  constexpr int kSegmentRows = kLineSegmentBytes / E, kAboveRows = kLineAboveBytes / E;
  constexpr int kThreads = COLS * SEG, kTileRows = SEG * kSegmentRows;
  constexpr int kLoadedRows = kTileRows + kAboveRows, kRowBytes = COLS * E;
  constexpr int kRowLanes = kRowBytes / 16;
  extern __shared__ __align__(16) unsigned char tile[];
  const int rowBytes = cols * E;  // a source row
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
  // global.
  const unsigned char* first =
      src + static_cast<long long>(x0 - kAboveRows) * rowBytes + static_cast<long long>(c0) * E;
  const unsigned char* end = src + matrix;
  const int head = static_cast<int>(addressOf(first) & 15);
  if (whole) {
    loadRun<E>(tile, first - head, head, x0, kTileRows, rows, rowBytes, end, kThreads);
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
      if (16 * k < in + n) loadWord(to, row - in + 16 * k, end);
      if (k == 0 && kRowBytes < in + n) loadWord(to + kRowBytes, row - in + kRowBytes, end);
    }
  }
  copiesDone();
  __syncthreads();

  const int segment = static_cast<int>(threadIdx.x) / COLS, x0s = x0 + segment * kSegmentRows;
  unsigned stream[kLoadedBytes / 4 + 1];
  gatherColumn<E>(tile + 16 + head + segment * kSegmentRows * pitch + c * E, pitch, stream);
  const int lead = static_cast<int>(addressOf(dst + dcol + x0s * E) & 31);
  __syncthreads();  // the tile is read: its room stages the columns
  unsigned* room = reinterpret_cast<unsigned*>(tile);
  stageColumn(stream, room, static_cast<int>(threadIdx.x), lead);
  __syncwarp();

  // A warp stores the columns its lanes staged, all of one segment.
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int c1 = warp * 32 % COLS;  // the warp's first column in its segment
  storeColumns<E, false>(dst, room + warp * 32 * kStageWords + kLineAboveBytes / 4, dcol, x0s,
                         min(32, n / E - c1), rows);
}

// Tiles that hold whole rows, a lane a column of each segment: thread t gathers column t % cols of
// segment t / cols, so that no lane idles but those past the last segment's last column. Block b
// takes matrix b / tilesPerMatrix, and in it tile b % tilesPerMatrix.
template <int E>
__global__ void __launch_bounds__(kMaxLineRowThreads)
    lineRowsKernel(const unsigned char* __restrict__ src, unsigned char* __restrict__ dst, int rows,
                   int cols, int segments, int tilesPerMatrix, const LineAxes columns,
                   const LineAxes matrices) {
  constexpr int kSegmentRows = kLineSegmentBytes / E, kAboveRows = kLineAboveBytes / E;
  extern __shared__ __align__(16) unsigned char tile[];
  const int rowBytes = cols * E, tileRows = segments * kSegmentRows;
  const long long matrix = static_cast<long long>(rows) * rowBytes;
  src += blockIdx.x / tilesPerMatrix * matrix;
  dst += matrices.offsetOf(static_cast<int>(blockIdx.x / tilesPerMatrix)) * E;
  const int x0 = static_cast<int>(blockIdx.x % tilesPerMatrix) * tileRows;
  const int t = static_cast<int>(threadIdx.x), lanes = cols * segments;
  const int segment = t / cols, c = t - segment * cols;
  const bool gathers = t < lanes;
  // Where the thread's column starts in the destination, worked out while the tile loads.
  const long long dcol = columns.offsetOf(c) * E;

  const unsigned char* first = src + static_cast<long long>(x0 - kAboveRows) * rowBytes;
  const int head = static_cast<int>(addressOf(first) & 15);
  loadRun<E>(tile, first - head, head, x0, tileRows, rows, rowBytes, src + matrix,
             static_cast<int>(blockDim.x));
  copiesDone();
  __syncthreads();

  const int x0s = gathers ? x0 + segment * kSegmentRows : rows;
  unsigned stream[kLoadedBytes / 4 + 1];
  if (gathers)
    gatherColumn<E>(tile + 16 + head + segment * kSegmentRows * rowBytes + c * E, rowBytes, stream);
  const int lead = static_cast<int>(addressOf(dst + dcol + x0s * E) & 31);
  __syncthreads();  // the tile is read: its room stages the columns
  unsigned* room = reinterpret_cast<unsigned*>(tile);
  if (gathers) stageColumn(stream, room, t, lead);
  __syncwarp();

  const int warp = t / 32;
  storeColumns<E, true>(dst, room + warp * 32 * kStageWords + kLineAboveBytes / 4, dcol, x0s,
                        min(32, lanes - warp * 32), rows);
}

struct LineArgs {
  const unsigned char* src;
  unsigned char* dst;
  int grid, rows, cols, across, perMatrix;
  LineAxes columns, matrices;
};

template <typename Kernel>
void allowShared(Kernel kernel, std::size_t shared) {
  if (shared > kDefaultSharedBytes)
    KWB_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(shared)));
}

template <int E, int COLS, int SEG>
void launchTiles(const LineArgs& a, std::size_t shared, cudaStream_t stream) {
  const auto kernel = lineTilesKernel<E, COLS, SEG>;
  allowShared(kernel, shared);
  kernel<<<a.grid, COLS * SEG, shared, stream>>>(a.src, a.dst, a.rows, a.cols, a.across,
                                                 a.perMatrix, a.columns, a.matrices);
  KWB_CHECK_LAUNCH("lineTilesKernel");
}

template <int E, int COLS>
void launchSegments(const LineArgs& a, int segments, std::size_t shared, cudaStream_t stream) {
  switch (segments) {
    case 1: return launchTiles<E, COLS, 1>(a, shared, stream);
    case 2: return launchTiles<E, COLS, 2>(a, shared, stream);
    case 4:
      if constexpr (COLS * E <= 128 && COLS <= 64)
        return launchTiles<E, COLS, 4>(a, shared, stream);
      break;
    default: break;
  }
  throw Error(ErrorKind::Internal, "line transpose: no kernel for tiles of " +
                                       std::to_string(COLS) + " columns in " +
                                       std::to_string(segments) + " segments");
}

template <int E>
void launchRows(const LineArgs& a, int segments, int threads, std::size_t shared,
                cudaStream_t stream) {
  const auto kernel = lineRowsKernel<E>;
  allowShared(kernel, shared);
  kernel<<<a.grid, threads, shared, stream>>>(a.src, a.dst, a.rows, a.cols, segments, a.perMatrix,
                                              a.columns, a.matrices);
  KWB_CHECK_LAUNCH("lineRowsKernel");
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
  LineLaunch l{batch, rows, cols, tileCols};
  l.elementBytes = elementBytes;
  if (!l.packedRows()) {
    // Rows padded to whole tiles of one and of two segments: two where they pad 5 % more or less.
    const std::int64_t one = (rows + l.segmentRows() - 1) / l.segmentRows(),
                       two = (one + 1) / 2 * 2;
    return l.wholeRows() && tileCols * elementBytes <= 64 && one > 1 && 20 * two <= 21 * one &&
                   batch * two / 2 >= kMinTwoSegmentTiles
               ? 2
               : 1;
  }
  // Segments of fewer than 32 lanes share a warp, and meet in banks the more of them it holds.
  const std::int64_t mostThreads = l.segmentLanes() < 32 ? 32 : kMaxLineRowFillThreads;
  int best = 1;
  double bestFill = 0;
  std::int64_t bestThreads = 0;
  const auto distance = [](std::int64_t threads) {
    return threads > kLineRowThreads ? threads - kLineRowThreads : kLineRowThreads - threads;
  };
  for (l.segments = 1; l.segments <= kMostLineRowSegments && l.threads() <= mostThreads;
       ++l.segments) {
    if (l.segments > 1 && l.tiles() < kMinLineRowTiles) break;
    const std::int64_t threads = l.threads();
    const double fill = static_cast<double>(cols * l.segments) / static_cast<double>(threads) *
                        static_cast<double>(rows) /
                        static_cast<double>(l.tilesDown() * l.tileRows());
    if (fill > bestFill * 1.03 ||
        (fill >= bestFill * 0.97 && distance(threads) < distance(bestThreads))) {
      best = l.segments;
      bestFill = std::max(fill, bestFill);
      bestThreads = threads;
    }
  }
  return best;
}

std::optional<LineLaunch> defaultLineLaunch(const Permutation& s, int elementBytes) {
  auto l = lineLaunchFor(s);
  if (!l || (elementBytes != 1 && elementBytes != 2)) return std::nullopt;
  l->elementBytes = elementBytes;
  l->tileCols = lineTileColsFor(l->cols, elementBytes);
  l->segments = lineSegmentsFor(l->batch, l->rows, l->cols, l->tileCols, elementBytes);
  return l;
}

bool lineTileBuilt(const LineLaunch& l) {
  if (l.elementBytes != 1 && l.elementBytes != 2) return false;
  if (l.packedRows())
    return l.segments >= 1 && l.segments <= kMostLineRowSegments &&
           l.cols * l.segments <= kMaxLineRowThreads;
  const std::span<const int> widths = tileColsOf(l.elementBytes);
  for (std::size_t i = 0; i < widths.size(); ++i)
    if (l.tileCols == widths[i])
      return l.segments >= 1 && l.segments <= mostSegmentsOf(l.elementBytes)[i] &&
             (l.segments & (l.segments - 1)) == 0;
  return false;
}

std::size_t lineSharedBytes(const LineLaunch& l) {
  return l.wholeRows() ? rowsSharedBytes(l.elementBytes, l.cols * l.elementBytes,
                                         l.segmentLanes() * l.elementBytes, l.segments, l.threads())
                       : tileSharedBytes(l.elementBytes, l.tileCols, l.segments);
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
  if (l.packedRows()) {
    const int threads = static_cast<int>(l.threads());
    if (l.elementBytes == 1) return launchRows<1>(a, l.segments, threads, shared, stream);
    if (l.elementBytes == 2) return launchRows<2>(a, l.segments, threads, shared, stream);
  } else if (l.elementBytes == 1) {
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
