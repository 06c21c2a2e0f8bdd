#include "measure/ceilingkernels.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "core/error.h"
#include "kernels/cudacheck.h"

namespace kwb {
namespace {

constexpr int kThreads = 256;
constexpr int kChains = 8;  // independent FMAs per thread per round: enough to hide their latency

// The FMA of each type, on values that stay finite however many rounds run.
struct Fp32 {
  using T = float;
  static constexpr int kFlops = 2;
  __device__ static T start(int i) { return 1.0f + i * 1e-3f; }
  __device__ static T fma(T a, T x, T y) { return fmaf(a, x, y); }
  __device__ static float out(T a) { return a; }
  static T x() { return 0.999f; }
  static T y() { return 1e-3f; }
};
struct Fp64 {
  using T = double;
  static constexpr int kFlops = 2;
  __device__ static T start(int i) { return 1.0 + i * 1e-3; }
  __device__ static T fma(T a, T x, T y) { return ::fma(a, x, y); }
  __device__ static float out(T a) { return static_cast<float>(a); }
  static T x() { return 0.999; }
  static T y() { return 1e-3; }
};
struct Fp16 {
  using T = __half2;
  static constexpr int kFlops = 4;  // two lanes
  __device__ static T start(int i) { return __floats2half2_rn(1.0f + i * 1e-3f, 1.0f); }
  __device__ static T fma(T a, T x, T y) { return __hfma2(a, x, y); }
  __device__ static float out(T a) { return __low2float(a) + __high2float(a); }
  static T x() { return __floats2half2_rn(0.999f, 0.999f); }
  static T y() { return __floats2half2_rn(1e-3f, 1e-3f); }
};
struct Bf16 {
  using T = __nv_bfloat162;
  static constexpr int kFlops = 4;
  __device__ static T start(int i) { return __floats2bfloat162_rn(1.0f + i * 1e-3f, 1.0f); }
  __device__ static T fma(T a, T x, T y) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    return __hfma2(a, x, y);
#else
    return a;  // no bfloat16 arithmetic before Ampere: the host does not launch it there
#endif
  }
  __device__ static float out(T a) {
    return __low2float(a) + __high2float(a);
  }
  static T x() {
    return __floats2bfloat162_rn(0.999f, 0.999f);
  }
  static T y() {
    return __floats2bfloat162_rn(1e-3f, 1e-3f);
  }
};

template <typename Op>
__global__ void fmaKernel(float* out, typename Op::T x, typename Op::T y, int iterations) {
  typename Op::T chain[kChains];
#pragma unroll
  for (int c = 0; c < kChains; ++c) chain[c] = Op::start(c + threadIdx.x);
    // Unrolled so that the loop's own instructions (a count, a compare, a branch) take under 3 % of
    // the issue slots: a throughput ceiling must issue nothing but the instruction it measures.
#pragma unroll 16
  for (int k = 0; k < iterations; ++k) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) chain[c] = Op::fma(chain[c], x, y);
  }
  float sum = 0;
#pragma unroll
  for (int c = 0; c < kChains; ++c) sum += Op::out(chain[c]);
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

constexpr int kTileFloat4s = 1024;  // 16 KiB of shared memory a block

__global__ void sharedKernel(float* out, int iterations) {
  __shared__ float4 tile[kTileFloat4s];
  for (int i = threadIdx.x; i < kTileFloat4s; i += blockDim.x)
    tile[i] = make_float4(i, i + 1, i + 2, i + 3);
  __syncthreads();
  float4 sum = make_float4(0, 0, 0, 0);
  // A warp reads 32 consecutive float4: each quarter of it covers the 32 banks once.
#pragma unroll 8
  for (int k = 0; k < iterations; ++k) {
    const float4 v = tile[(threadIdx.x + k * 32) & (kTileFloat4s - 1)];
    sum.x += v.x;
    sum.y += v.y;
    sum.z += v.z;
    sum.w += v.w;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum.x + sum.y + sum.z + sum.w;
}

__global__ void readKernel(const float4* data, std::size_t count, int passes, float* out) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  float4 sum = make_float4(0, 0, 0, 0);
  for (int p = 0; p < passes; ++p)
    for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
      const float4 v = __ldcg(data + i);  // cached in L2, not L1
      sum.x += v.x;
      sum.y += v.y;
      sum.z += v.z;
      sum.w += v.w;
    }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum.x + sum.y + sum.z + sum.w;
}

int blocksOf(const DeviceInfo& d) {
  return d.smCount * (d.maxThreadsPerSm / kThreads);
}

// The L2 kernel's buffer: a quarter of L2, in float4s, after the per-thread results.
std::size_t l2Count(const DeviceInfo& d) {
  return static_cast<std::size_t>(d.l2Bytes) / 4 / sizeof(float4);
}

template <typename Op>
double launchFma(const DeviceInfo& d, float* out, int iterations, cudaStream_t stream) {
  fmaKernel<Op><<<blocksOf(d), kThreads, 0, stream>>>(out, Op::x(), Op::y(), iterations);
  KWB_CUDA_CHECK(cudaGetLastError());
  return static_cast<double>(blocksOf(d)) * kThreads * iterations * kChains * Op::kFlops;
}

}  // namespace

std::size_t ceilingScratchBytes(const DeviceInfo& d) {
  return static_cast<std::size_t>(blocksOf(d)) * kThreads * sizeof(float) +
         l2Count(d) * sizeof(float4);
}

double launchCeilingKernel(std::string_view ceiling, const DeviceInfo& d, void* scratch,
                           int iterations, cudaStream_t stream) {
  auto* out = static_cast<float*>(scratch);
  if (ceiling == "fp32") return launchFma<Fp32>(d, out, iterations, stream);
  if (ceiling == "fp64") return launchFma<Fp64>(d, out, iterations, stream);
  if (ceiling == "fp16") return launchFma<Fp16>(d, out, iterations, stream);
  if (ceiling == "bf16") return launchFma<Bf16>(d, out, iterations, stream);
  if (ceiling == "shared") {
    sharedKernel<<<blocksOf(d), kThreads, 0, stream>>>(out, iterations);
    KWB_CUDA_CHECK(cudaGetLastError());
    return static_cast<double>(blocksOf(d)) * kThreads * iterations * sizeof(float4);
  }
  if (ceiling == "l2") {
    // 16-byte aligned: the results before it are a multiple of 256 floats.
    const auto* data = reinterpret_cast<const float4*>(out + blocksOf(d) * kThreads);
    readKernel<<<blocksOf(d), kThreads, 0, stream>>>(data, l2Count(d), iterations, out);
    KWB_CUDA_CHECK(cudaGetLastError());
    return static_cast<double>(l2Count(d)) * sizeof(float4) * iterations;
  }
  throw Error(ErrorKind::Internal, "no micro-kernel for the ceiling " + std::string(ceiling));
}

double launchStreamRead(const DeviceInfo& device, const void* data, std::size_t bytes, float* out,
                        cudaStream_t stream) {
  const std::size_t count = bytes / sizeof(float4);
  readKernel<<<blocksOf(device), kThreads, 0, stream>>>(static_cast<const float4*>(data), count, 1,
                                                        out);
  KWB_CUDA_CHECK(cudaGetLastError());
  return static_cast<double>(count) * sizeof(float4);
}

}  // namespace kwb
