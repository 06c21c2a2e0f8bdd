/* kwb
name = "transpose_blocked"
summary = "a transpose through shared-memory tiles of any shape, with six knobs to tune"
teaches = "A tile of TR x TC elements is read along the source's rows by TX x TY threads and written along the destination's rows from shared memory; each block moves TPB tiles one after another. Wide TX keeps both sides coalesced, PAD = 1 keeps the column reads off one bank, more tiles per block spend fewer blocks on more work. 1050 of the 1920 combinations run; tune them with kwb tune."
implements = "permute"
restrictions = ["TC % TX == 0 && TR % TX == 0", "TR % TY == 0 && TC % TY == 0",
                "TX * TY >= 32 && TX * TY <= 1024", "TR * (TC + PAD) * 4 <= 49152"]

[params.shape]
kind = "list"
min = 1
max = "2^15"
max_length = 2
default = "4096,4096"
role = "problem"
unit = "elements"
meaning = "rows, columns of the source"

[params.perm]
kind = "choice"
values = ["1,0"]
role = "problem"
meaning = "a transpose"

[params.TR]
kind = "choice"
values = [16, 32, 64, 128]
default = 32
as = "template"
unit = "elements"
meaning = "rows of the source a tile holds"

[params.TC]
kind = "choice"
values = [16, 32, 64, 128]
default = 32
as = "template"
unit = "elements"
meaning = "columns of the source a tile holds"

[params.TX]
kind = "choice"
values = [4, 8, 16, 32]
default = 32
as = "template"
unit = "threads"
meaning = "threads along a tile's rows: consecutive elements of one row"

[params.TY]
kind = "choice"
values = [1, 2, 4, 8, 16]
default = 8
as = "template"
unit = "threads"
meaning = "threads along a tile's columns; each walks its rows TY apart"

[params.TPB]
kind = "choice"
values = [1, 2, 4]
default = 1
as = "template"
unit = "tiles"
meaning = "tiles each block moves, one after another"

[params.PAD]
kind = "choice"
values = [0, 1]
default = 1
as = "define"
meaning = "padding of each shared-memory row, in elements"

[[buffers]]
name = "x"
count = "shape_0 * shape_1"

[[buffers]]
name = "out"
count = "shape_0 * shape_1"
role = "out"

[[launch]]
kernel = "transpose_blocked<TR, TC, TX, TY, TPB>"
grid = "ceil_div(ceil_div(shape_1, TC) * ceil_div(shape_0, TR), TPB)"
block = "TX * TY"
args = ["x", "out", "shape_0", "shape_1"]
*/

// Block b moves tiles b * TPB .. b * TPB + TPB - 1, tile t sitting at (tile row, tile column) =
// (t / tilesAcross, t % tilesAcross).
template <int TR, int TC, int TX, int TY, int TPB>
__global__ void transpose_blocked(const float* __restrict__ src, float* __restrict__ dst,
                                  int rows, int cols) {
  __shared__ float tile[TR][TC + PAD];
  const int tilesAcross = (cols + TC - 1) / TC;
  const int tiles = tilesAcross * ((rows + TR - 1) / TR);
  const int tx = threadIdx.x % TX, ty = threadIdx.x / TX;
  const int last = min(static_cast<int>(blockIdx.x + 1) * TPB, tiles);
  for (int t = blockIdx.x * TPB; t < last; ++t) {
    const int row0 = t / tilesAcross * TR, col0 = t % tilesAcross * TC;
    for (int y = ty; y < TR; y += TY)
      for (int x = tx; x < TC; x += TX) {
        const int r = row0 + y, c = col0 + x;
        if (r < rows && c < cols) tile[y][x] = src[static_cast<long long>(r) * cols + c];
      }
    __syncthreads();
    for (int y = ty; y < TC; y += TY)
      for (int x = tx; x < TR; x += TX) {
        const int c = col0 + y, r = row0 + x;  // destination row c, column r
        if (r < rows && c < cols) dst[static_cast<long long>(c) * rows + r] = tile[x][y];
      }
    __syncthreads();
  }
}
