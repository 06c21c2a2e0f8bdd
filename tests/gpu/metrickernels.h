#pragma once

#include <cuda_runtime.h>

namespace kwb::testing {

// Kernels whose counters are known in advance. Each writes `blocks` x 256 floats to out.
// Every lane runs the same loop, or only one lane in 32 does: divergence.
void launchUniform(float* out, int blocks, cudaStream_t stream);
void launchDivergent(float* out, int blocks, cudaStream_t stream);
// Lane t stores to and loads from shared word t * stride: stride 1 and 33 hit 32 different
// banks, stride 32 hits one bank 32 times.
void launchSharedStride(float* out, int blocks, int stride, cudaStream_t stream);

}  // namespace kwb::testing
