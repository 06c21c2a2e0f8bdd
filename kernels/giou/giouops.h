#pragma once

// The small kernels an unfused GIoU chain is made of, one operation each over float arrays, as
// an eager framework runs the formula: every step reads its inputs from memory and writes its
// result back.
#include <cstdint>

#include <cuda_runtime.h>

#include "core/dtype.h"

namespace kwb::giou {

enum class BinaryOp { Add, Sub, Mul, Div, Max, Min };

// out[r * so + c] = a[r * sa + c] op b[r * sb + c] for rows r and columns c < width; a stride of
// 0 broadcasts one row (a scalar for width 1).
struct Strided {
  const float* data;
  int stride;
};
void launchBinary(BinaryOp op, Strided a, Strided b, float* out, int outStride, std::int64_t rows,
                  int width, int block, cudaStream_t stream);
// out = max(in, floor) over n elements.
void launchClampMin(const float* in, float* out, float floor, std::int64_t n, int block,
                    cudaStream_t stream);
// out = 1 - in.
void launchOneMinus(const float* in, float* out, std::int64_t n, int block, cudaStream_t stream);
// out = in * factor, the factor known on the host.
void launchScale(const float* in, float* out, float factor, std::int64_t n, int block,
                 cudaStream_t stream);
// n elements of `type` to float.
void launchToFloat(const void* in, DType type, float* out, std::int64_t n, int block,
                   cudaStream_t stream);
// mask[i] = targets[4 i + 3] > 0 (the write-up's padding test) over n boxes.
void launchMaskFromY2(const float* targets, float* mask, std::int64_t n, int block,
                      cudaStream_t stream);
// mask[i] = (i % boxes) < counts[i / boxes] over n boxes.
void launchMaskFromCounts(const std::int32_t* counts, int boxes, float* mask, std::int64_t n,
                          int block, cudaStream_t stream);
// The valid boxes of every sample, packed: sample b's first counts[b] boxes land at
// offsets[b] (offsets [B + 1], the running sum of counts), for preds and targets at once.
void launchGatherValid(const void* preds, int predBytes, const void* targets, int targetBytes,
                       const std::int32_t* offsets, std::int64_t batch, int boxes, void* predsOut,
                       void* targetsOut, int block, cudaStream_t stream);

// Sums n floats in two launches, deterministically: per-block partial sums into
// partials[kSumBlocks], then one block adds those into *out.
inline constexpr int kSumBlocks = 256;
void launchSum(const float* in, std::int64_t n, float* partials, float* out, cudaStream_t stream);

}  // namespace kwb::giou
