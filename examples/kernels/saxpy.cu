/* kwb
name = "saxpy"
summary = "y = a * x + y, with its parameters as #defines"
teaches = "Parameters given as = \"define\" reach the code as macros: UNROLL is a compile-time constant, so the loop it bounds unrolls; sweep it and block_size."
bytes = "3 * n * 4"
flops = "2 * n"

[params.n]
kind = "integer"
min = 1
max = "2^30"
default = "2^24"
role = "problem"
as = "argument"
unit = "elements"
meaning = "the vectors' length"

[params.UNROLL]
kind = "choice"
values = [1, 2, 4, 8]
default = 4
as = "define"
meaning = "elements each thread handles per step"

[params.block_size]
kind = "integer"
min = 32
max = 1024
multiple_of = 32
default = 256
as = "argument"
unit = "threads"

[reference]                # one element per thread: the fast kernel's output is held against it
kernel = "saxpy_reference"
grid = "ceil_div(n, 256)"
block = "256"
tolerance = 1e-6

[[buffers]]
name = "x"
count = "n"

[[buffers]]
name = "y"
count = "n"
role = "inout"

[[launch]]
kernel = "saxpy"
grid = "min(ceil_div(n, block_size * UNROLL), sm_count * 32)"
block = "block_size"
args = ["x", "y", "n"]
*/

// A grid-stride loop in which each thread handles UNROLL elements a step.
extern "C" __global__ void saxpy(const float* x, float* y, long long n) {
  const float a = 2.0f;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x * UNROLL;
  for (long long base = static_cast<long long>(blockIdx.x) * blockDim.x * UNROLL + threadIdx.x;
       base < n; base += stride) {
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      const long long i = base + static_cast<long long>(u) * blockDim.x;
      if (i < n) y[i] = a * x[i] + y[i];
    }
  }
}

// One element per thread: what the fast kernel's output is checked against.
extern "C" __global__ void saxpy_reference(const float* x, float* y, long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i] + y[i];
}
