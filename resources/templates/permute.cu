/* kwb
name = "my_transpose"
summary = "a transpose whose tile is left to write"
teaches = "Checked exactly as the built-in transposes are. As given, each block walks a TILE x TILE tile but writes straight to global memory, one column apart per thread: stage the tile in shared memory (__shared__ float tile[TILE][TILE + 1]), __syncthreads(), and write it back along the destination's rows."
implements = "permute"
restrictions = ["TILE * ROWS <= max_threads_per_block"]

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

[params.TILE]
kind = "choice"
values = [16, 32, 64]
default = 32
as = "template"

[params.ROWS]
kind = "choice"
values = [4, 8, 16]
default = 8
as = "template"

[[buffers]]
name = "x"
count = "shape_0 * shape_1"

[[buffers]]
name = "out"
count = "shape_0 * shape_1"
role = "out"

[[launch]]
kernel = "transpose<TILE, ROWS>"
grid = "ceil_div(shape_1, TILE) * ceil_div(shape_0, TILE)"
block = "TILE * ROWS"
args = ["x", "out", "shape_0", "shape_1"]
*/

template <int TILE, int ROWS>
__global__ void transpose(const float* __restrict__ x, float* __restrict__ out, int rows,
                          int cols) {
  const int tilesAcross = (cols + TILE - 1) / TILE;
  const int row0 = blockIdx.x / tilesAcross * TILE, col0 = blockIdx.x % tilesAcross * TILE;
  const int tx = threadIdx.x % TILE, ty = threadIdx.x / TILE;
  // TODO: read the tile into shared memory here, then write it out transposed.
  for (int y = ty; y < TILE; y += ROWS) {
    const int r = row0 + y, c = col0 + tx;
    if (r < rows && c < cols) out[static_cast<long long>(c) * rows + r] = x[static_cast<long long>(r) * cols + c];
  }
}
