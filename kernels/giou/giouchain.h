#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "kernels/giou/giouproblem.h"

namespace kwb::giou {

// The write-up's generalized_box_iou as an eager framework runs it: one small kernel for each
// operation of the formula (24; 25 with torchvision's 1 - GIoU), each reading and writing
// memory. preds and targets are float [n, 4]; the per-box terms (GIoU or 1 - GIoU) land in
// scratch, which must hold chainScratchFloats(n) floats; returns where.
const float* enqueueChain(const float* preds, const float* targets, std::int64_t n, float epsilon,
                          LossForm form, float* scratch, int block, cudaStream_t stream);

std::size_t chainLaunches(LossForm form);
std::size_t chainScratchFloats(std::int64_t n);

}  // namespace kwb::giou
