/* kwb
name = "my_copy"
summary = "a grid-stride copy of floats: the ceiling to reach"
teaches = "Checked and counted as the built-in copies are. Widen the accesses (float2, float4) and size the grid in waves of the device to reach the copy ceiling."
implements = "copy"

[params.n]
kind = "integer"
min = 1
max = "2^32"
default = "2^24"
role = "problem"
unit = "elements"

[params.dtype]
kind = "choice"
values = ["f32"]
role = "problem"

[params.block_size]
kind = "integer"
min = 32
max = 1024
multiple_of = 32
default = 256
unit = "threads"

[params.waves]
kind = "integer"
min = 1
max = 64
default = 32

[[buffers]]
name = "src"
count = "n"

[[buffers]]
name = "dst"
count = "n"
role = "out"

[[launch]]
kernel = "copy"
grid = "max(1, min(ceil_div(n, block_size), sm_count * max_threads_per_sm / block_size * waves))"
block = "block_size"
args = ["dst", "src", "n"]
*/

extern "C" __global__ void copy(float* __restrict__ dst, const float* __restrict__ src,
                                unsigned long long n) {
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < n; i += stride)
    dst[i] = src[i];
}
