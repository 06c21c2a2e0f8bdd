/* kwb
name = "copy_float4"
summary = "the vectorized copy written as a kernel file: 16-byte loads in a grid-stride loop"
teaches = "A kernel file measures exactly as a built-in variant does: same inputs, timer, L2 flush and check. This one is `copy vectorized` at 16 bytes; compare the two in the history."
implements = "copy"                 # the copy family's inputs, reference and bytes

[params.n]
kind = "integer"
min = 1
max = "2^32"
default = "2^24"
role = "problem"
unit = "elements"
meaning = "floats to copy"

[params.dtype]
kind = "choice"
values = ["f32"]
role = "problem"
meaning = "element type: this kernel moves floats"

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
meaning = "grid size in full waves of the device (SMs x resident blocks)"

[[buffers]]
name = "src"
count = "n"

[[buffers]]
name = "dst"
count = "n"
role = "out"

[[launch]]
kernel = "copy_float4"
grid = "max(1, min(ceil_div(ceil_div(n, 4), block_size), sm_count * max_threads_per_sm / block_size * waves))"
block = "block_size"
args = ["dst", "src", "n"]
*/

// Whole float4s in a grid-stride loop, then the last n % 4 floats, one thread each.
extern "C" __global__ void copy_float4(float* __restrict__ dst, const float* __restrict__ src,
                                       unsigned long long n) {
  const unsigned long long vectors = n / 4;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  const unsigned long long first = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (unsigned long long i = first; i < vectors; i += stride)
    reinterpret_cast<float4*>(dst)[i] = reinterpret_cast<const float4*>(src)[i];
  const unsigned long long tail = vectors * 4 + first;
  if (tail < n) dst[tail] = src[tail];
}
