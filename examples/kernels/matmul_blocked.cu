/* kwb
name = "matmul_blocked"
summary = "C = A B with a BM x BN tile of C per block and a TM x TN tile per thread"
teaches = "Five knobs that pull against each other: larger block tiles (BM, BN) reuse each value staged in shared memory more often, a deeper BK stages more per synchronization, and larger thread tiles (TM, TN) reuse each value loaded into a register, at the price of registers, shared memory and fewer threads per block. 508 of the 768 combinations run; tune them with kwb tune."
bytes = "4 * (m * k + k * n + m * n)"
flops = "2 * m * n * k"
restrictions = ["BM % TM == 0", "BN % TN == 0",
                "(BM / TM) * (BN / TN) >= 32 && (BM / TM) * (BN / TN) <= 1024",
                "(BM * BK) % ((BM / TM) * (BN / TN)) == 0",
                "(BK * BN) % ((BM / TM) * (BN / TN)) == 0",
                "m % BM == 0 && n % BN == 0 && k % BK == 0"]

[params.m]
kind = "integer"
min = 128
max = 16384
multiple_of = 128
default = 1024
role = "problem"
meaning = "rows of A and C"

[params.n]
kind = "integer"
min = 128
max = 16384
multiple_of = 128
default = 1024
role = "problem"
meaning = "columns of B and C"

[params.k]
kind = "integer"
min = 32
max = 16384
multiple_of = 32
default = 1024
role = "problem"
meaning = "columns of A, rows of B"

[params.BM]
kind = "choice"
values = [16, 32, 64, 128]
default = 64
as = "template"
unit = "rows"
meaning = "rows of the tile of C a block computes"

[params.BN]
kind = "choice"
values = [16, 32, 64, 128]
default = 64
as = "template"
unit = "columns"
meaning = "columns of the tile of C a block computes"

[params.BK]
kind = "choice"
values = [8, 16, 32]
default = 16
as = "template"
unit = "elements"
meaning = "depth of the tiles of A and B staged in shared memory at once"

[params.TM]
kind = "choice"
values = [1, 2, 4, 8]
default = 4
as = "template"
unit = "rows"
meaning = "rows of C each thread computes, BM / TM apart"

[params.TN]
kind = "choice"
values = [1, 2, 4, 8]
default = 4
as = "template"
unit = "columns"
meaning = "columns of C each thread computes, BN / TN apart"

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
kernel = "matmul_blocked<BM, BN, BK, TM, TN>"
grid = "(m / BM) * (n / BN)"
block = "(BM / TM) * (BN / TN)"
args = ["a", "b", "c", "m", "n", "k"]

[reference]
kernel = "matmul_reference"
grid = "ceil_div(m * n, 256)"
block = "256"
tolerance = 1e-5
*/

// Block b computes the BM x BN tile of C at (b / (n / BN), b % (n / BN)). Thread (ty, tx)
// computes rows ty + i * BM / TM and columns tx + j * BN / TN of it: neighbouring threads write
// neighbouring columns.
template <int BM, int BN, int BK, int TM, int TN>
__global__ void matmul_blocked(const float* __restrict__ a, const float* __restrict__ b,
                               float* __restrict__ c, int m, int n, int k) {
  constexpr int kCols = BN / TN, kRows = BM / TM, kThreads = kRows * kCols;
  __shared__ float as[BK][BM + 1];  // A's tile transposed: a row of it is a column of A
  __shared__ float bs[BK][BN];
  const int row0 = blockIdx.x / (n / BN) * BM, col0 = blockIdx.x % (n / BN) * BN;
  const int tx = threadIdx.x % kCols, ty = threadIdx.x / kCols;
  float acc[TM][TN] = {};
  for (int k0 = 0; k0 < k; k0 += BK) {
    for (int e = threadIdx.x; e < BM * BK; e += kThreads)
      as[e % BK][e / BK] = a[static_cast<long long>(row0 + e / BK) * k + k0 + e % BK];
    for (int e = threadIdx.x; e < BK * BN; e += kThreads)
      bs[e / BN][e % BN] = b[static_cast<long long>(k0 + e / BN) * n + col0 + e % BN];
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float av[TM], bv[TN];
      for (int i = 0; i < TM; ++i) av[i] = as[kk][ty + i * kRows];
      for (int j = 0; j < TN; ++j) bv[j] = bs[kk][tx + j * kCols];
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j) acc[i][j] += av[i] * bv[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      c[static_cast<long long>(row0 + ty + i * kRows) * n + col0 + tx + j * kCols] = acc[i][j];
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
