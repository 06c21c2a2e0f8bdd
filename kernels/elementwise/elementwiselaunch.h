#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "core/dtype.h"
#include "kernels/elementwise/elementwiseop.h"

namespace kwb {

// How an elementwise kernel walks its elements.
enum class ElementwiseWalk {
  Naive,       // one element per thread, one thread per element
  GridStride,  // one element per step of a grid-stride loop
  Packed,      // one pack of `pack` elements per step, scalar math
  PackedPairs  // one pack per step, math on half2/bfloat162 pairs (OneFlow's Apply2)
};

struct ElementwiseLaunch {
  ElementwiseOp op = ElementwiseOp::Relu;
  ElementwiseWalk walk = ElementwiseWalk::Naive;
  DType in = DType::F32;
  DType out = DType::F32;
  std::int64_t n = 0;
  int pack = 1;    // elements per pack, already checked against alignment
  int unroll = 1;  // packs each thread loads before it computes
  int grid = 1;
  int block = 256;
  void* output = nullptr;
  const void* inputs[3] = {nullptr, nullptr, nullptr};
};

void launchElementwise(const ElementwiseLaunch& launch, cudaStream_t stream);

// One per op, each in its own translation unit (ops/*.cu) so that they compile in parallel.
void launchRelu(const ElementwiseLaunch& launch, cudaStream_t stream);
void launchGelu(const ElementwiseLaunch& launch, cudaStream_t stream);
void launchGeluTanh(const ElementwiseLaunch& launch, cudaStream_t stream);
void launchSilu(const ElementwiseLaunch& launch, cudaStream_t stream);
void launchMul(const ElementwiseLaunch& launch, cudaStream_t stream);
void launchMulAdd(const ElementwiseLaunch& launch, cudaStream_t stream);
void launchCast(const ElementwiseLaunch& launch, cudaStream_t stream);

}  // namespace kwb
