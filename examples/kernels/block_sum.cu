/* kwb
name = "block_sum"
summary = "the sum of a vector: warp shuffles, one atomic per block"
teaches = "Each warp adds its values with shuffles, each block adds its warps' sums in shared memory, and one atomicAdd per block meets the others in global memory. A float sum's order changes its last bits: the reference sums in double, and the tolerance allows the difference."
bytes = "n * 4"
flops = "n"

[params.n]
kind = "integer"
min = 1
max = "2^31"
default = "2^24"
role = "problem"
unit = "elements"

[params.block_size]
kind = "choice"
values = [128, 256, 512, 1024]
default = 256
unit = "threads"

[params.waves]
kind = "integer"
min = 1
max = 32
default = 4
meaning = "blocks per SM in the grid-stride loop: fewer blocks, fewer atomics"

[[buffers]]
name = "x"
count = "n"

[[buffers]]
name = "sum"
count = "1"
role = "out"
fill = "zeros"                     # set to 0 at the start of every call: the blocks add into it

[[launch]]
kernel = "block_sum"
grid = "min(ceil_div(n, block_size), sm_count * waves)"
block = "block_size"
shared_bytes = "block_size / 32 * 4"
args = ["x", "sum", "n"]

[reference]
kernel = "sum_reference"
grid = "1"
block = "1024"
shared_bytes = "1024 * 8"
tolerance = 1e-5
*/

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

extern "C" __global__ void block_sum(const float* __restrict__ x, float* sum, long long n) {
  extern __shared__ float warps[];
  float v = 0.0f;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    v += x[i];
  v = warp_sum(v);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warps[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? warps[lane] : 0.0f;
    v = warp_sum(v);
    if (lane == 0) atomicAdd(sum, v);
  }
}

// One block, double precision throughout: slow, and right to the last bit of a float.
extern "C" __global__ void sum_reference(const float* __restrict__ x, float* sum, long long n) {
  extern __shared__ double partial[];
  double v = 0.0;
  for (long long i = threadIdx.x; i < n; i += blockDim.x) v += x[i];
  partial[threadIdx.x] = v;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) *sum = static_cast<float>(partial[0]);
}
