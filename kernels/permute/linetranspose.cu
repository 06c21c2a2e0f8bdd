// Byte transposes in raw rows and gathered columns (linetranspose.h).
#include <climits>
#include <iterator>

#include "core/error.h"
#include "kernels/cudacheck.h"
#include "kernels/permute/linetranspose.h"

namespace kwb::permute {
namespace {

// The tile widths and segments a kernel is built for (tile_cols, tile_rows): up to 256 threads
// and 64 KiB of shared memory.
constexpr int kLineTileCols[] = {32, 64, 128};
constexpr int kMostSegments[] = {4, 4, 2};
constexpr int kLoaded = kLineRows + kLineAbove;  // the rows a lane gathers
// A lane's staged column: kLoaded / 4 words, shifted by up to 8 words, and one to spread banks.
constexpr int kStageWords = kLoaded / 4 + 9;
constexpr std::size_t kDefaultSharedBytes = 48 * 1024;

// Shared rows: COLS bytes, up to 15 more each side that their covering words bring, and the
// rest of a pitch congruent to the row stride mod 16 (at most COLS + 47 bytes); the room then
// stages each lane's column.
constexpr int maxPitchOf(int cols) {
  return cols + 47;
}
constexpr std::size_t sharedBytesOf(int cols, int segments) {
  const std::size_t rows = 16 +
                           static_cast<std::size_t>(segments * kLineRows + kLineAbove) *
                               static_cast<std::size_t>(maxPitchOf(cols)) +
                           32;
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
// tilesAcross, t % tilesAcross) of t = b % tilesPerMatrix. Source matrices are rows x cols bytes,
// destination ones cols x rows. Thread (s, c) = (threadIdx.x / COLS, threadIdx.x % COLS) gathers
// column c of segment s.
template <int COLS, int SEG>
__global__ void __launch_bounds__(COLS* SEG)
    lineTransposeKernel(const unsigned char* __restrict__ src, unsigned char* __restrict__ dst,
                        int rows, int cols, int tilesAcross, int tilesPerMatrix) {
  constexpr int kThreads = COLS * SEG, kTileRows = SEG * kLineRows;
  constexpr int kLoadedRows = kTileRows + kLineAbove, kRowLanes = COLS / 16;
  extern __shared__ __align__(16) unsigned char tile[];
  const long long matrix = static_cast<long long>(rows) * cols;
  src += blockIdx.x / tilesPerMatrix * matrix;
  dst += blockIdx.x / tilesPerMatrix * matrix;
  const int t = static_cast<int>(blockIdx.x % tilesPerMatrix);
  const int x0 = t / tilesAcross * kTileRows, c0 = t % tilesAcross * COLS;
  const int n = min(COLS, cols - c0);  // the tile's columns
  // Where a tile holds whole rows its rows are one contiguous run, copied as it lies (pitch
  // cols); else each row's covering words, a pitch apart congruent to cols mod 16.
  const bool whole = tilesAcross == 1;
  const int pitch = whole ? cols : COLS + 32 + ((cols - COLS - 32) & 15);

  // Loads, where rows are not whole: kRowLanes lanes a row, each an aligned 16-byte word of it,
  // the first lane also the word past theirs. Row rho lands at tile + 16 + head + rho * pitch +
  // (where it starts in its word), which keeps each word aligned in shared memory as it is in
  // global. The word holding the matrix's last byte is read byte by byte where the matrix ends
  // inside it.
  const unsigned char* first = src + static_cast<long long>(x0 - kLineAbove) * cols + c0;
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
    const long long lo = static_cast<long long>(max(x0 - kLineAbove, 0) - (x0 - kLineAbove)) * cols;
    const long long hi =
        static_cast<long long>(min(x0 + kTileRows, rows) - (x0 - kLineAbove)) * cols;
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
      const int rho = rho0 + kRowsAPass * i, x = x0 - kLineAbove + rho;
      if (rho >= kLoadedRows || x < 0 || x >= rows) continue;
      const unsigned char* row = first + static_cast<long long>(rho) * cols;
      const int in = static_cast<int>(addressOf(row) & 15);
      unsigned char* to = tile + 16 + head + rho * pitch - in + 16 * k;
      if (16 * k < in + n) load(to, row - in + 16 * k);
      if (k == 0 && COLS < in + n) load(to + COLS, row - in + COLS);
    }
  }
  copiesDone();
  __syncthreads();

  // Gather: a lane a column of its segment, down the segment's rows and the kLineAbove above
  // them, 4 rows to a word.
  const int segment = static_cast<int>(threadIdx.x) / COLS, x0s = x0 + segment * kLineRows;
  const int c = static_cast<int>(threadIdx.x) % COLS;
  const unsigned char* column = tile + 16 + head + segment * kLineRows * pitch + c;
  unsigned stream[kLoaded / 4 + 1];
#pragma unroll
  for (int w = 0; w < kLoaded / 4; ++w) {
    const unsigned b0 = column[(4 * w) * pitch], b1 = column[(4 * w + 1) * pitch];
    const unsigned b2 = column[(4 * w + 2) * pitch], b3 = column[(4 * w + 3) * pitch];
    stream[w] = __byte_perm(__byte_perm(b0, b1, 0x0040), __byte_perm(b2, b3, 0x0040), 0x5410);
  }
  stream[kLoaded / 4] = 0;

  // The column's destination sector at or before row x0s starts `lead` rows before it: the
  // stream from byte kLineAbove - lead on is the column's, staged shifted to start on a word.
  const long long dcol = static_cast<long long>(c0 + c) * rows;
  const int lead = static_cast<int>(addressOf(dst + dcol + x0s) & 31);
  const int skip = kLineAbove - lead, words = skip / 4, bits = skip % 4 * 8;
  __syncthreads();  // the tile is read: its room stages the columns
  unsigned* stage =
      reinterpret_cast<unsigned*>(tile) + threadIdx.x * kStageWords + kLineAbove / 4 - words;
#pragma unroll
  for (int i = 0; i < kLoaded / 4; ++i) stage[i] = __funnelshift_r(stream[i], stream[i + 1], bits);
  __syncwarp();

  // Stores: 8 lanes a column, 16 bytes each, 4 columns at a time; a segment owns the words from
  // its columns' sector before row x0s up to the next segment's (and, in the last, to the end).
  // A warp stores the columns its lanes staged, all of one segment.
  const int lane = static_cast<int>(threadIdx.x) % 32, warp = static_cast<int>(threadIdx.x) / 32;
  const int c1 = warp * 32 % COLS;  // the warp's first column in its segment
  const int k = lane % 8, columns = x0s < rows ? min(32, n - c1) : 0;
  const bool last = x0s + kLineRows >= rows;
  const unsigned* staged =
      reinterpret_cast<const unsigned*>(tile) + warp * 32 * kStageWords + kLineAbove / 4;
  for (int l = lane / 8; l < columns; l += 4) {
    const long long d = static_cast<long long>(c0 + c1 + l) * rows;
    const int from = x0s - static_cast<int>(addressOf(dst + d + x0s) & 31);
    for (int word = k; word < kLoaded / 16; word += 8) {
      if (word >= kLineRows / 16 && !last) break;
      const int x = from + 16 * word;  // the word's first row
      const unsigned* s = staged + l * kStageWords + 4 * word;
      const uint4 v = make_uint4(s[0], s[1], s[2], s[3]);
      unsigned char* at = dst + d + x;
      if (x >= 0 && x + 16 <= rows) {
        *reinterpret_cast<uint4*>(at) = v;
      } else {  // a column's ends: its own bytes alone, in the widest aligned pieces
        const unsigned long long low = static_cast<unsigned long long>(v.y) << 32 | v.x;
        const unsigned long long high = static_cast<unsigned long long>(v.w) << 32 | v.z;
        for (int j = max(0, -x), e = min(16, rows - x); j < e;) {
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
};

template <int COLS, int SEG>
void launchWith(const LineArgs& a, cudaStream_t stream) {
  const auto kernel = lineTransposeKernel<COLS, SEG>;
  constexpr std::size_t shared = sharedBytesOf(COLS, SEG);
  if constexpr (shared > kDefaultSharedBytes)
    KWB_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(shared)));
  kernel<<<a.grid, COLS * SEG, shared, stream>>>(a.src, a.dst, a.rows, a.cols, a.across,
                                                 a.perMatrix);
  KWB_CHECK_LAUNCH("lineTransposeKernel");
}

template <int COLS>
void launchSegments(const LineArgs& a, int segments, cudaStream_t stream) {
  switch (segments) {
    case 1: return launchWith<COLS, 1>(a, stream);
    case 2: return launchWith<COLS, 2>(a, stream);
    case 4:
      if constexpr (COLS <= 64) return launchWith<COLS, 4>(a, stream);
      break;
    default: break;
  }
  throw Error(ErrorKind::Internal, "line transpose: no kernel for tiles of " +
                                       std::to_string(COLS) + " columns in " +
                                       std::to_string(segments) + " segments");
}

}  // namespace

int lineTileColsFor(std::int64_t cols) {
  for (const int c : kLineTileCols)
    if (cols <= c) return c;
  return kLineTileCols[2];
}

int lineSegmentsFor(std::int64_t batch, std::int64_t rows, std::int64_t cols, int tileCols) {
  // Rows padded to whole tiles of one and of two segments: two where they pad 5 % more or less.
  const std::int64_t one = (rows + kLineRows - 1) / kLineRows, two = (one + 1) / 2 * 2;
  return cols <= tileCols && tileCols <= 64 && one > 1 && 20 * two <= 21 * one &&
                 batch * two / 2 >= kMinTwoSegmentTiles
             ? 2
             : 1;
}

LineLaunch defaultLineLaunch(std::int64_t batch, std::int64_t rows, std::int64_t cols) {
  LineLaunch l{batch, rows, cols, lineTileColsFor(cols)};
  l.segments = lineSegmentsFor(batch, rows, cols, l.tileCols);
  return l;
}

bool lineTileBuilt(int tileCols, int segments) {
  for (std::size_t i = 0; i < std::size(kLineTileCols); ++i)
    if (tileCols == kLineTileCols[i])
      return segments >= 1 && segments <= kMostSegments[i] && (segments & (segments - 1)) == 0;
  return false;
}

std::size_t lineSharedBytes(const LineLaunch& l) {
  return sharedBytesOf(l.tileCols, l.segments);
}

bool linesFit(const LineLaunch& l) {
  // Row offsets x0 + tileRows and tile indices stay within 32 bits.
  constexpr std::int64_t kMaxSide = std::int64_t{1} << 30;
  return l.rows <= kMaxSide && l.cols <= kMaxSide && l.tiles() <= INT_MAX;
}

void launchLineTranspose(const LineLaunch& l, cudaStream_t stream) {
  const LineArgs a{static_cast<const unsigned char*>(l.src),
                   static_cast<unsigned char*>(l.dst),
                   static_cast<int>(l.tiles()),
                   static_cast<int>(l.rows),
                   static_cast<int>(l.cols),
                   static_cast<int>(l.tilesAcross()),
                   static_cast<int>(l.tilesAcross() * l.tilesDown())};
  switch (l.tileCols) {
    case 32: return launchSegments<32>(a, l.segments, stream);
    case 64: return launchSegments<64>(a, l.segments, stream);
    case 128: return launchSegments<128>(a, l.segments, stream);
    default: break;
  }
  throw Error(ErrorKind::Internal,
              "line transpose: no kernel for tiles of " + std::to_string(l.tileCols) + " columns");
}

}  // namespace kwb::permute
