/* kwb
name = "transpose_tiled"
summary = "a tile through shared memory: coalesced reads and coalesced writes"
teaches = "A block reads a TILE x TILE tile along its rows, then writes it back along the rows of the destination from shared memory. PAD = 1 shifts each row by one bank: set it to 0 and sweep TILE to see bank conflicts cost."
implements = "permute"
restrictions = ["TILE * ROWS <= max_threads_per_block", "TILE % ROWS == 0"]

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

[params.TILE]
kind = "choice"
values = [16, 32, 64]
default = 32
as = "template"
unit = "elements"
meaning = "side of the square tile a block moves"

[params.ROWS]
kind = "choice"
values = [4, 8, 16]
default = 8
as = "template"
meaning = "rows of threads per block; each thread moves TILE / ROWS elements"

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
kernel = "transpose_tiled<TILE, ROWS>"
grid = "ceil_div(shape_1, TILE) * ceil_div(shape_0, TILE)"
block = "TILE * ROWS"
args = ["x", "out", "shape_0", "shape_1"]
*/

// Block b takes the tile at (tile row, tile column) = (b / tilesAcross, b % tilesAcross).
template <int TILE, int ROWS>
__global__ void transpose_tiled(const float* __restrict__ src, float* __restrict__ dst, int rows,
                                int cols) {
  __shared__ float tile[TILE][TILE + PAD];
  const int tilesAcross = (cols + TILE - 1) / TILE;
  const int row0 = blockIdx.x / tilesAcross * TILE, col0 = blockIdx.x % tilesAcross * TILE;
  const int tx = threadIdx.x % TILE, ty = threadIdx.x / TILE;
  for (int y = ty; y < TILE; y += ROWS) {
    const int r = row0 + y, c = col0 + tx;
    if (r < rows && c < cols) tile[y][tx] = src[static_cast<long long>(r) * cols + c];
  }
  __syncthreads();
  for (int y = ty; y < TILE; y += ROWS) {
    const int c = col0 + y, r = row0 + tx;  // destination row c, column r
    if (r < rows && c < cols) dst[static_cast<long long>(c) * rows + r] = tile[tx][y];
  }
}
