/* kwb
name = "matmul_tiled"
summary = "C = A B through shared-memory tiles, each thread computing WORK outputs"
teaches = "Tiles of A and B are staged in shared memory so that each global value is read N / TILE times instead of N. WORK outputs per thread reuse each value of B held in a register: sweep TILE and WORK and watch the time and the registers."
bytes = "4 * (m * k + k * n + m * n)"
flops = "2 * m * n * k"
restrictions = ["TILE % WORK == 0", "TILE * TILE / WORK <= max_threads_per_block",
                "m % TILE == 0 && n % TILE == 0 && k % TILE == 0"]

[params.m]
kind = "integer"
min = 16
max = 16384
multiple_of = 16
default = 2048
role = "problem"
meaning = "rows of A and C"

[params.n]
kind = "integer"
min = 16
max = 16384
multiple_of = 16
default = 2048
role = "problem"
meaning = "columns of B and C"

[params.k]
kind = "integer"
min = 16
max = 16384
multiple_of = 16
default = 2048
role = "problem"
meaning = "columns of A, rows of B"

[params.TILE]
kind = "choice"
values = [16, 32, 64]
default = 32
as = "template"
unit = "elements"
meaning = "side of the square tiles of A, B and C a block works on"

[params.WORK]
kind = "choice"
values = [1, 2, 4, 8]
default = 4
as = "template"
unit = "outputs"
meaning = "outputs of C each thread computes, one column apart by TILE / WORK rows"

[[buffers]]
name = "a"
count = "m * k"
fill = "normal"

[[buffers]]
name = "b"
count = "k * n"
fill = "normal"

[[buffers]]
name = "c"
count = "m * n"
role = "out"

[[launch]]
kernel = "matmul_tiled<TILE, WORK>"
grid = "(m / TILE) * (n / TILE)"
block = "TILE * TILE / WORK"
args = ["a", "b", "c", "m", "n", "k"]

[reference]
kernel = "matmul_reference"
grid = "ceil_div(m * n, 256)"
block = "256"
tolerance = 1e-5
*/

// Block b computes the TILE x TILE tile of C at (b / (n / TILE), b % (n / TILE)); thread t
// computes rows t / TILE + i * TILE / WORK of column t % TILE.
template <int TILE, int WORK>
__global__ void matmul_tiled(const float* __restrict__ a, const float* __restrict__ b,
                             float* __restrict__ c, int m, int n, int k) {
  constexpr int kRows = TILE / WORK;  // rows of threads
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE + 1];
  const int row0 = blockIdx.x / (n / TILE) * TILE, col0 = blockIdx.x % (n / TILE) * TILE;
  const int tx = threadIdx.x % TILE, ty = threadIdx.x / TILE;
  float acc[WORK] = {};
  for (int k0 = 0; k0 < k; k0 += TILE) {
    for (int w = 0; w < WORK; ++w) {
      const int r = ty + w * kRows;
      as[r][tx] = a[static_cast<long long>(row0 + r) * k + k0 + tx];
      bs[r][tx] = b[static_cast<long long>(k0 + r) * n + col0 + tx];
    }
    __syncthreads();
#pragma unroll 8
    for (int kk = 0; kk < TILE; ++kk) {
      const float bv = bs[kk][tx];
      for (int w = 0; w < WORK; ++w) acc[w] += as[ty + w * kRows][kk] * bv;
    }
    __syncthreads();
  }
  for (int w = 0; w < WORK; ++w)
    c[static_cast<long long>(row0 + ty + w * kRows) * n + col0 + tx] = acc[w];
}

// One output per thread, straight from global memory, summed in double.
extern "C" __global__ void matmul_reference(const float* __restrict__ a,
                                            const float* __restrict__ b, float* __restrict__ c,
                                            int m, int n, int k) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<long long>(m) * n) return;
  const int row = static_cast<int>(i / n), col = static_cast<int>(i % n);
  double acc = 0.0;
  for (int kk = 0; kk < k; ++kk)
    acc += static_cast<double>(a[static_cast<long long>(row) * k + kk]) * b[static_cast<long long>(kk) * n + col];
  c[i] = static_cast<float>(acc);
}
