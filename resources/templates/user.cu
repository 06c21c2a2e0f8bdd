/* kwb
name = "my_kernel"
summary = "y = 2 x, a starting point"
teaches = "Write the kernel below, keep the reference simple and obviously right, and run: every run is checked against the reference, timed and stored with this file's text."
bytes = "2 * n * 4"                   # read x, write y: what the bandwidth is computed from

[params.n]
kind = "integer"
min = 1
max = "2^31"
default = "2^24"
role = "problem"                      # problem parameters say what is computed
unit = "elements"

[params.block_size]
kind = "integer"
min = 32
max = 1024
multiple_of = 32
default = 256                         # launch parameters say how: sweep them
unit = "threads"

[[buffers]]
name = "x"
count = "n"                           # filled with seeded uniform values in [-1, 1)

[[buffers]]
name = "y"
count = "n"
role = "out"

[[launch]]
kernel = "scale"
grid = "ceil_div(n, block_size)"
block = "block_size"
args = ["x", "y", "n"]                # buffers and integer expressions, in the kernel's order

[reference]                           # run on the same inputs; outputs held against it
kernel = "scale_reference"
grid = "ceil_div(n, 256)"
block = "256"
tolerance = 1e-6
*/

extern "C" __global__ void scale(const float* __restrict__ x, float* __restrict__ y, long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i];
}

extern "C" __global__ void scale_reference(const float* x, float* y, long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i];
}
