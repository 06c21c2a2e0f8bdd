/* kwb
name = "transpose_lines"
summary = "bytes transposed where rows start anywhere: raw rows in, one column a lane out"
teaches = "A byte transpose whose sides are no multiple of 16 starts every row and every column somewhere inside a 16-byte word. This kernel copies each source row's covering 16-byte words into shared memory as they are (cp.async), rows a pitch apart that keeps every word aligned there; then each lane gathers one column down all the tile's rows, a byte a row (32 lanes read 32 neighbouring bytes of one row: no bank conflicts), shifts it into place in registers and stages it, so that 8 lanes store each column in whole 32-byte sectors. Against the kernels permute/auto took before it took this one's built-in copy (permute lines, which takes batches too and copies a tile that holds whole rows as one run), on an H200: (118357, 567) level with shifted cells (0.74 of the copy ceiling), (5161845, 52) 1.47x with COLS = 64 (1.10x with 128, whose lanes past the 52nd idle), (1677721, 40) 1.85x with 64; where rows and columns start on words, (8192, 8192), a byte a row costs more than the aligned cells auto moves (0.80x)."
implements = "permute"
restrictions = ["shape_0 * shape_1 < 2^31"]

[params.shape]
kind = "list"
min = 1
max = "2^31"
max_length = 2
default = "118357,567"
role = "problem"
unit = "elements"
meaning = "rows, columns of the source"

[params.perm]
kind = "choice"
values = ["1,0"]
role = "problem"
meaning = "a transpose"

[params.dtype]
kind = "choice"
values = ["u8"]
role = "problem"
meaning = "bytes"

[[buffers]]
name = "x"
dtype = "u8"
count = "shape_0 * shape_1"

[[buffers]]
name = "out"
dtype = "u8"
count = "shape_0 * shape_1"
role = "out"

[params.COLS]
kind = "choice"
values = [32, 64, 128]
default = 128
as = "template"
unit = "columns"
meaning = "a tile's columns, one a thread: fewer for sources of few columns"

[[launch]]
kernel = "transpose_lines<COLS>"
grid = "ceil_div(shape_1, COLS) * ceil_div(shape_0, 128)"
block = "COLS"
args = ["x", "out", "shape_0", "shape_1"]
*/

// A block's tile: 128 source rows by COLS columns (a thread a column), with the 32 rows above it,
// so that each column's destination words can start on the sector at or before its first row.
constexpr int kRows = 128, kAbove = 32, kLoaded = kRows + kAbove;
// A lane's staged stream: kLoaded / 4 words, shifted by up to 8 words, and one to spread banks.
constexpr int kStageWords = kLoaded / 4 + 9;

__device__ __forceinline__ void copy16(unsigned sharedAt, const unsigned char* from) {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(sharedAt), "l"(from));
#else
  asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(sharedAt),
               "r"(reinterpret_cast<const uint4*>(from)->x),
               "r"(reinterpret_cast<const uint4*>(from)->y),
               "r"(reinterpret_cast<const uint4*>(from)->z),
               "r"(reinterpret_cast<const uint4*>(from)->w));
#endif
}

__device__ __forceinline__ void copiesDone() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;" ::: "memory");
#endif
}

// Block b takes the tile at (tile row, tile column) = (b / tilesAcross, b % tilesAcross). The
// source is rows x cols bytes, the destination cols x rows.
template <int COLS>
__global__ void __launch_bounds__(COLS) transpose_lines(const unsigned char* __restrict__ src,
                                                         unsigned char* __restrict__ dst, int rows,
                                                         int cols) {
  // Shared rows: COLS bytes, up to 15 more each side that their covering words bring, and the
  // rest of a pitch congruent to the row stride mod 16 (at most COLS + 47 bytes).
  constexpr int kMaxPitch = COLS + 47, kRowLanes = COLS / 16;
  __shared__ alignas(16) unsigned char tile[16 + kLoaded * kMaxPitch + 32];
  const int tilesAcross = (cols + COLS - 1) / COLS;
  const int x0 = blockIdx.x / tilesAcross * kRows, c0 = blockIdx.x % tilesAcross * COLS;
  const int n = min(COLS, cols - c0);  // the tile's columns
  const int pitch = COLS + 32 + ((cols - COLS - 32) & 15);  // == cols mod 16

  // Loads: kRowLanes lanes a row, each an aligned 16-byte word of it, the first lane also the word
  // past theirs.
  // Row rho lands at tile + 16 + head + rho * pitch + (where it starts in its word), which keeps
  // each word aligned in shared memory as it is in global. The word holding the source's last
  // byte is read byte by byte where the buffer ends inside it.
  const unsigned char* first = src + static_cast<long long>(x0 - kAbove) * cols + c0;
  const unsigned char* end = src + static_cast<long long>(rows) * cols;
  const int head = static_cast<int>(reinterpret_cast<unsigned long long>(first) & 15);
  const auto load = [&](unsigned char* to, const unsigned char* from) {
    if (from + 16 <= end) {
      copy16(static_cast<unsigned>(__cvta_generic_to_shared(to)), from);
    } else {
      for (int j = 0; j < 16 && from + j < end; ++j) to[j] = from[j];
    }
  };
  {
    const int k = threadIdx.x % kRowLanes, rho0 = threadIdx.x / kRowLanes;
#pragma unroll
    for (int i = 0; i < kLoaded / 16; ++i) {
      const int rho = rho0 + 16 * i, x = x0 - kAbove + rho;
      if (x < 0 || x >= rows) continue;
      const unsigned char* row = first + static_cast<long long>(rho) * cols;
      const int in = static_cast<int>(reinterpret_cast<unsigned long long>(row) & 15);
      unsigned char* to = tile + 16 + head + rho * pitch - in + 16 * k;
      if (16 * k < in + n) load(to, row - in + 16 * k);
      if (k == 0 && COLS < in + n) load(to + COLS, row - in + COLS);
    }
    copiesDone();
  }
  __syncthreads();

  // Gather: a lane a column, down every loaded row, 4 rows to a word.
  const unsigned char* column = tile + 16 + head + threadIdx.x;
  unsigned stream[kLoaded / 4 + 1];
#pragma unroll
  for (int w = 0; w < kLoaded / 4; ++w) {
    const unsigned b0 = column[(4 * w) * pitch], b1 = column[(4 * w + 1) * pitch];
    const unsigned b2 = column[(4 * w + 2) * pitch], b3 = column[(4 * w + 3) * pitch];
    stream[w] = __byte_perm(__byte_perm(b0, b1, 0x0040), __byte_perm(b2, b3, 0x0040), 0x5410);
  }
  stream[kLoaded / 4] = 0;

  // The column's destination sector at or before row x0 starts `lead` rows before it: the stream
  // from byte kAbove - lead on is the column's, staged shifted to start on a word.
  const long long dcol = static_cast<long long>(c0 + threadIdx.x) * rows;
  const int lead = static_cast<int>(reinterpret_cast<unsigned long long>(dst + dcol + x0) & 31);
  const int skip = kAbove - lead, words = skip / 4, bits = skip % 4 * 8;
  __syncthreads();  // the tile is read: its room stages the columns
  unsigned* stage =
      reinterpret_cast<unsigned*>(tile) + threadIdx.x * kStageWords + kAbove / 4 - words;
#pragma unroll
  for (int i = 0; i < kLoaded / 4; ++i) stage[i] = __funnelshift_r(stream[i], stream[i + 1], bits);
  __syncwarp();

  // Stores: 8 lanes a column, 16 bytes each, 4 columns at a time; the tile owns the words from
  // its columns' sector before row x0 up to the next tile's (and, in the last tile, to the end).
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, k = lane % 8;
  const int columns = min(32, n - warp * 32);
  const bool last = x0 + kRows >= rows;
  const unsigned* staged =
      reinterpret_cast<const unsigned*>(tile) + warp * 32 * kStageWords + kAbove / 4;
  for (int l = lane / 8; l < columns; l += 4) {
    const long long d = static_cast<long long>(c0 + warp * 32 + l) * rows;
    const int from = x0 - static_cast<int>(reinterpret_cast<unsigned long long>(dst + d + x0) & 31);
    for (int word = k; word < (kRows + kAbove) / 16; word += 8) {
      if (word >= kRows / 16 && !last) break;
      const int x = from + 16 * word;  // the word's first row
      const unsigned* s = staged + l * kStageWords + 4 * word;
      const uint4 v = make_uint4(s[0], s[1], s[2], s[3]);
      unsigned char* at = dst + d + x;
      if (x >= 0 && x + 16 <= rows) {
        *reinterpret_cast<uint4*>(at) = v;
      } else {  // a column's ends: its own bytes alone
        const unsigned long long low = static_cast<unsigned long long>(v.y) << 32 | v.x;
        const unsigned long long high = static_cast<unsigned long long>(v.w) << 32 | v.z;
        for (int j = max(0, -x); j < min(16, rows - x); ++j)
          at[j] = static_cast<unsigned char>((j < 8 ? low : high) >> (8 * (j % 8)));
      }
    }
  }
}
