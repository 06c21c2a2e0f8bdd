/* kwb
name = "transpose_naive"
summary = "one thread per element: reads along rows, writes down columns"
teaches = "The starting point of the transpose exercise: every read is coalesced, every write strides by a whole row, so each warp's 32 stores touch 32 different memory segments."
implements = "permute"              # checked exactly as the built-in transposes are

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
meaning = "a transpose: destination dimension 0 is source dimension 1"

[params.block_size]
kind = "choice"
values = [128, 256, 512, 1024]
default = 256
unit = "threads"

[[buffers]]
name = "x"
count = "shape_0 * shape_1"

[[buffers]]
name = "out"
count = "shape_0 * shape_1"
role = "out"

[[launch]]
kernel = "transpose_naive"
grid = "ceil_div(shape_0 * shape_1, block_size)"
block = "block_size"
args = ["x", "out", "shape_0", "shape_1"]
*/

// dst[c][r] = src[r][c]; thread i reads source element i.
extern "C" __global__ void transpose_naive(const float* __restrict__ src, float* __restrict__ dst,
                                           int rows, int cols) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<long long>(rows) * cols) return;
  const long long r = i / cols, c = i % cols;
  dst[c * rows + r] = src[i];
}
