#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>

#include "core/error.h"
#include "kernels/cudacheck.h"
#include "kernels/giou/giouops.h"
#include "kernels/units.cuh"

namespace kwb::giou {
namespace {

constexpr int kSumThreads = 256;

unsigned blocksFor(std::int64_t n, int block) {
  return static_cast<unsigned>(std::clamp<std::int64_t>((n + block - 1) / block, 1, 1 << 20));
}

// One functor an operation, so that a kernel trace reads "binaryKernel<Sub>".
struct Add {
  static __device__ float apply(float a, float b) { return a + b; }
};
struct Sub {
  static __device__ float apply(float a, float b) { return a - b; }
};
struct Mul {
  static __device__ float apply(float a, float b) { return a * b; }
};
struct Div {
  static __device__ float apply(float a, float b) { return a / b; }
};
struct Max {
  static __device__ float apply(float a, float b) { return fmaxf(a, b); }
};
struct Min {
  static __device__ float apply(float a, float b) { return fminf(a, b); }
};

template <typename Op>
__global__ void binaryKernel(const float* a, int sa, const float* b, int sb, float* out, int so,
                             std::int64_t n, int width) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    const std::int64_t r = i / width;
    const std::int64_t c = i - r * width;
    out[r * so + c] = Op::apply(a[r * sa + c], b[r * sb + c]);
  }
}

__global__ void clampMinKernel(const float* in, float* out, float floor, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x)
    out[i] = fmaxf(in[i], floor);
}

__global__ void affineKernel(const float* in, float* out, float scale, float shift,
                             std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x)
    out[i] = shift + scale * in[i];
}

template <typename T>
__global__ void toFloatKernel(const T* in, float* out, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x)
    out[i] = static_cast<float>(in[i]);
}

__global__ void maskFromY2Kernel(const float* targets, float* mask, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x)
    mask[i] = targets[4 * i + 3] > 0.0f ? 1.0f : 0.0f;
}

__global__ void maskFromCountsKernel(const std::int32_t* counts, int boxes, float* mask,
                                     std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x)
    mask[i] = i % boxes < counts[i / boxes] ? 1.0f : 0.0f;
}

// Each box moves as one element of P and one of T: the whole box in one access.
template <typename P, typename T>
__global__ void gatherKernel(const P* preds, const T* targets, const std::int32_t* offsets,
                             std::int64_t batch, int boxes, P* predsOut, T* targetsOut) {
  const std::int64_t n = batch * boxes;
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    const std::int64_t b = i / boxes;
    const std::int64_t k = i - b * boxes;
    const std::int64_t start = offsets[b];
    if (start + k >= offsets[b + 1]) continue;
    predsOut[start + k] = preds[i];
    targetsOut[start + k] = targets[i];
  }
}

__device__ __forceinline__ float blockSum(float v) {
  __shared__ float warpSums[32];
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) warpSums[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x < blockDim.x / 32 ? warpSums[threadIdx.x] : 0.0f;
  if (threadIdx.x < 32)
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

__global__ void partialSumKernel(const float* in, std::int64_t n, float* partials) {
  float v = 0;
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x)
    v += in[i];
  v = blockSum(v);
  if (threadIdx.x == 0) partials[blockIdx.x] = v;
}

__global__ void finalSumKernel(const float* partials, int count, float* out) {
  float v = 0;
  for (int i = threadIdx.x; i < count; i += blockDim.x) v += partials[i];
  v = blockSum(v);
  if (threadIdx.x == 0) *out = v;
}

template <typename Op>
void binary(Strided a, Strided b, float* out, int so, std::int64_t rows, int width, int block,
            cudaStream_t stream) {
  const std::int64_t n = rows * width;
  binaryKernel<Op><<<blocksFor(n, block), block, 0, stream>>>(a.data, a.stride, b.data, b.stride,
                                                              out, so, n, width);
  KWB_CHECK_LAUNCH("binaryKernel");
}

}  // namespace

void launchBinary(BinaryOp op, Strided a, Strided b, float* out, int outStride, std::int64_t rows,
                  int width, int block, cudaStream_t stream) {
  switch (op) {
    case BinaryOp::Add: return binary<Add>(a, b, out, outStride, rows, width, block, stream);
    case BinaryOp::Sub: return binary<Sub>(a, b, out, outStride, rows, width, block, stream);
    case BinaryOp::Mul: return binary<Mul>(a, b, out, outStride, rows, width, block, stream);
    case BinaryOp::Div: return binary<Div>(a, b, out, outStride, rows, width, block, stream);
    case BinaryOp::Max: return binary<Max>(a, b, out, outStride, rows, width, block, stream);
    case BinaryOp::Min: return binary<Min>(a, b, out, outStride, rows, width, block, stream);
  }
}

void launchClampMin(const float* in, float* out, float floor, std::int64_t n, int block,
                    cudaStream_t stream) {
  clampMinKernel<<<blocksFor(n, block), block, 0, stream>>>(in, out, floor, n);
  KWB_CHECK_LAUNCH("clampMinKernel");
}

void launchOneMinus(const float* in, float* out, std::int64_t n, int block, cudaStream_t stream) {
  affineKernel<<<blocksFor(n, block), block, 0, stream>>>(in, out, -1.0f, 1.0f, n);
  KWB_CHECK_LAUNCH("affineKernel");
}

void launchScale(const float* in, float* out, float factor, std::int64_t n, int block,
                 cudaStream_t stream) {
  affineKernel<<<blocksFor(n, block), block, 0, stream>>>(in, out, factor, 0.0f, n);
  KWB_CHECK_LAUNCH("affineKernel");
}

void launchToFloat(const void* in, DType type, float* out, std::int64_t n, int block,
                   cudaStream_t stream) {
  const unsigned grid = blocksFor(n, block);
  switch (type) {
    case DType::F16:
      toFloatKernel<<<grid, block, 0, stream>>>(static_cast<const __half*>(in), out, n);
      break;
    case DType::BF16:
      toFloatKernel<<<grid, block, 0, stream>>>(static_cast<const __nv_bfloat16*>(in), out, n);
      break;
    case DType::U8:
      toFloatKernel<<<grid, block, 0, stream>>>(static_cast<const std::uint8_t*>(in), out, n);
      break;
    default:
      throw Error(ErrorKind::Internal,
                  "giou: no conversion to float from " + std::string(toString(type)));
  }
  KWB_CHECK_LAUNCH("toFloatKernel");
}

void launchMaskFromY2(const float* targets, float* mask, std::int64_t n, int block,
                      cudaStream_t stream) {
  maskFromY2Kernel<<<blocksFor(n, block), block, 0, stream>>>(targets, mask, n);
  KWB_CHECK_LAUNCH("maskFromY2Kernel");
}

void launchMaskFromCounts(const std::int32_t* counts, int boxes, float* mask, std::int64_t n,
                          int block, cudaStream_t stream) {
  maskFromCountsKernel<<<blocksFor(n, block), block, 0, stream>>>(counts, boxes, mask, n);
  KWB_CHECK_LAUNCH("maskFromCountsKernel");
}

void launchGatherValid(const void* preds, int predBytes, const void* targets, int targetBytes,
                       const std::int32_t* offsets, std::int64_t batch, int boxes, void* predsOut,
                       void* targetsOut, int block, cudaStream_t stream) {
  // A box of four coordinates moves as one unit: 16 or 8 bytes of pred, 16 or 4 of target.
  withUnit(4 * predBytes, "gather", [&](auto predBox) {
    withUnit(4 * targetBytes, "gather", [&](auto targetBox) {
      using P = decltype(predBox);
      using T = decltype(targetBox);
      // Only the family's box sizes get a kernel.
      if constexpr ((sizeof(P) == 8 || sizeof(P) == 16) && (sizeof(T) == 4 || sizeof(T) == 16)) {
        gatherKernel<<<blocksFor(batch * boxes, block), block, 0, stream>>>(
            static_cast<const P*>(preds), static_cast<const T*>(targets), offsets, batch, boxes,
            static_cast<P*>(predsOut), static_cast<T*>(targetsOut));
        KWB_CHECK_LAUNCH("gatherKernel");
      } else {
        throw Error(ErrorKind::Internal, "gather: no kernel for boxes of these sizes");
      }
    });
  });
}

void launchSum(const float* in, std::int64_t n, float* partials, float* out, cudaStream_t stream) {
  partialSumKernel<<<kSumBlocks, kSumThreads, 0, stream>>>(in, n, partials);
  KWB_CHECK_LAUNCH("partialSumKernel");
  finalSumKernel<<<1, kSumThreads, 0, stream>>>(partials, kSumBlocks, out);
  KWB_CHECK_LAUNCH("finalSumKernel");
}

}  // namespace kwb::giou
