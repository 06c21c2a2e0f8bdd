#pragma once

#include <algorithm>
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

  // Packed walks: whether n and one grid's stride past it fit 32-bit indices.
  bool index32() const {
    return n + std::int64_t{grid} * block * unroll * pack <= std::int64_t{UINT32_MAX};
  }

  // Packed walks: the most steps of the grid-stride loop a thread takes; 1 where the grid holds
  // a thread for every `unroll` packs.
  std::int64_t passes() const {
    const std::int64_t items = (n / pack + unroll - 1) / unroll;
    const std::int64_t threads = std::int64_t{grid} * block;
    return std::max<std::int64_t>((items + threads - 1) / threads, 1);
  }
};

// The kernel a launch runs, picked once when a workload is made: its function (to check what
// its registers allow) and how to launch it, with no dispatch left for each call.
struct ElementwiseKernel {
  const void* function = nullptr;
  void (*launch)(const ElementwiseLaunch& launch, cudaStream_t stream) = nullptr;
};

// Throws Error(Internal) where the op, walk, types, pack and unroll have no kernel.
ElementwiseKernel findElementwiseKernel(const ElementwiseLaunch& launch);

// One per op, each in its own translation unit (ops/*.cu) so that they compile in parallel.
ElementwiseKernel findRelu(const ElementwiseLaunch& launch);
ElementwiseKernel findGelu(const ElementwiseLaunch& launch);
ElementwiseKernel findGeluTanh(const ElementwiseLaunch& launch);
ElementwiseKernel findSilu(const ElementwiseLaunch& launch);
ElementwiseKernel findMul(const ElementwiseLaunch& launch);
ElementwiseKernel findMulAdd(const ElementwiseLaunch& launch);
ElementwiseKernel findCast(const ElementwiseLaunch& launch);

}  // namespace kwb
