/* kwb
name = "read_floor"
summary = "reads a buffer and nothing else: the least time a kernel that must read n bytes takes"
teaches = "At tens of megabytes the launch, the first loads' latency and the last blocks' end are a good part of a kernel's time, so the copy ceiling (measured on large copies) is out of reach even for a kernel that does nothing but read. Run this with n set to the bytes your kernel must read: its fraction of the ceiling is what yours can reach at best at that size (20 MiB read about 0.70 of the copy ceiling on an H100, 36 MiB about 0.84)."
verification = "none"
bytes = "n"

[params.n]
kind = "integer"
min = 16
max = "2^34"
multiple_of = 16
default = "20Mi"
role = "problem"
unit = "bytes"
meaning = "bytes to read"

[params.UNROLL]
kind = "choice"
values = [1, 2, 4, 8]
default = 4
as = "template"
meaning = "16-byte loads each thread has in flight, all it makes"

[params.block_size]
kind = "choice"
values = [128, 256, 512]
default = 256
unit = "threads"

[[buffers]]
name = "x"
dtype = "u8"
count = "n"

[[buffers]]
name = "out"
dtype = "i32"
count = "1"
role = "out"

[[launch]]
kernel = "read_floor<UNROLL>"
grid = "ceil_div(n / 16, block_size * UNROLL)"
block = "block_size"
args = ["x", "out", "n / 16"]
*/

// Each thread issues all its loads at once, UNROLL 16-byte ones a block's width apart, and the
// grid covers the buffer in one pass: no load waits on another. (A grid-stride loop of fewer
// threads reads slower at these sizes: its last trips go one load at a time.) The words are
// folded into one value that is stored only if it matches a constant, so that the compiler keeps
// the loads and the kernel writes (almost surely) nothing.
template <int UNROLL>
__global__ void read_floor(const uint4* x, unsigned* out, long long vectors) {
  const long long first = blockIdx.x * (long long)blockDim.x * UNROLL + threadIdx.x;
  uint4 v[UNROLL];
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) {
    const long long i = first + (long long)u * blockDim.x;
    v[u] = i < vectors ? x[i] : make_uint4(0, 0, 0, 0);
  }
  unsigned folded = 0;
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) folded ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  if (folded == 0x9e3779b9u) out[0] = folded;
}
