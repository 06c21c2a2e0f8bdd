#include "measure/randomfill.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kernels/cudacheck.h"

namespace kwb {
namespace {

// A counter-based generator (splitmix64 finalizer): every element is independent of launch shape.
__device__ std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

template <typename T>
__device__ T fromBits(std::uint64_t bits) {
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    return static_cast<std::uint8_t>(bits >> 56);
  } else if constexpr (std::is_same_v<T, std::int32_t>) {
    return static_cast<std::int32_t>(bits >> 33);
  } else if constexpr (std::is_same_v<T, double>) {
    return static_cast<double>(bits >> 11) * 0x1.0p-52 - 1.0;
  } else {
    const float uniform = static_cast<float>(bits >> 40) * 0x1.0p-23f - 1.0f;
    if constexpr (std::is_same_v<T, float>) return uniform;
    if constexpr (std::is_same_v<T, __half>) return __float2half_rn(uniform);
    if constexpr (std::is_same_v<T, __nv_bfloat16>) return __float2bfloat16_rn(uniform);
  }
}

template <typename T>
__global__ void fillKernel(T* data, std::size_t count, std::uint64_t seed) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride)
    data[i] = fromBits<T>(mix(seed * 0x100000001b3ull + i));
}

template <typename T>
void fill(void* data, std::size_t count, std::uint64_t seed, cudaStream_t stream) {
  constexpr int kBlock = 256;
  const std::size_t blocks = std::min<std::size_t>((count + kBlock - 1) / kBlock, 65536);
  fillKernel<T><<<static_cast<unsigned>(std::max<std::size_t>(blocks, 1)), kBlock, 0, stream>>>(
      static_cast<T*>(data), count, seed);
  KWB_CHECK_LAUNCH("fillKernel");
}

}  // namespace

void fillRandom(void* data, DType type, std::size_t count, std::uint64_t seed,
                cudaStream_t stream) {
  switch (type) {
    case DType::U8: return fill<std::uint8_t>(data, count, seed, stream);
    case DType::F16: return fill<__half>(data, count, seed, stream);
    case DType::BF16: return fill<__nv_bfloat16>(data, count, seed, stream);
    case DType::F32: return fill<float>(data, count, seed, stream);
    case DType::F64: return fill<double>(data, count, seed, stream);
    case DType::I32: return fill<std::int32_t>(data, count, seed, stream);
  }
}

}  // namespace kwb
