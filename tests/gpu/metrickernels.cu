#include "gpu/metrickernels.h"

#include "kernels/cudacheck.h"

namespace kwb::testing {
namespace {

constexpr int kThreads = 256;
constexpr int kSteps = 256;

__global__ void uniformKernel(float* out) {
  float x = static_cast<float>(threadIdx.x);
  for (int i = 0; i < kSteps; ++i) x = x * 0.999f + 1.0f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

__global__ void divergentKernel(float* out) {
  float x = static_cast<float>(threadIdx.x);
  if (threadIdx.x % 32 == 0)
    for (int i = 0; i < kSteps; ++i) x = x * 0.999f + 1.0f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

__global__ void sharedStrideKernel(float* out, int stride) {
  __shared__ float words[32 * 33 * (kThreads / 32)];
  const int lane = threadIdx.x % 32;
  float* warpWords = words + (threadIdx.x / 32) * 32 * 33;
  float x = 0;
  for (int i = 0; i < kSteps / 8; ++i) {
    warpWords[(lane * stride) % (32 * 33)] = static_cast<float>(i + lane);
    __syncwarp();
    x += warpWords[((lane + 1) % 32 * stride) % (32 * 33)];  // a neighbour's word: a real load
    __syncwarp();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

}  // namespace

void launchUniform(float* out, int blocks, cudaStream_t stream) {
  uniformKernel<<<blocks, kThreads, 0, stream>>>(out);
  KWB_CHECK_LAUNCH("uniformKernel");
}

void launchDivergent(float* out, int blocks, cudaStream_t stream) {
  divergentKernel<<<blocks, kThreads, 0, stream>>>(out);
  KWB_CHECK_LAUNCH("divergentKernel");
}

void launchSharedStride(float* out, int blocks, int stride, cudaStream_t stream) {
  sharedStrideKernel<<<blocks, kThreads, 0, stream>>>(out, stride);
  KWB_CHECK_LAUNCH("sharedStrideKernel");
}

}  // namespace kwb::testing
