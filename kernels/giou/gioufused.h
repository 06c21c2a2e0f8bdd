#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "core/dtype.h"
#include "kernels/giou/giouproblem.h"

namespace kwb::giou {

enum class FusedKind {
  Plain,            // every box's GIoU, multiplied by its validity (the write-up's kernel)
  Conditional,      // invalid boxes skipped before their preds are read
  ForwardBackward,  // the loss and d loss / d preds; one cooperative kernel
};

// The loss as integers, added to by every block: the sum of 1 - GIoU over the valid boxes in
// fixed point and the valid count, each with the number of blocks added so far in its top bits,
// and a mailbox where the blocks that complete the two meet. Integer adds give the same totals in
// any order, so every run forms the same loss.
struct LossTotals {
  unsigned long long sum;
  unsigned long long count;
  unsigned long long mailbox;
};

// Boxes a thread of the plain kernel has in flight: a ring of this many in shared memory, copied
// asynchronously (cp.async), so that its next boxes load while it computes one and no register
// holds a box before it is needed. Deeper rings read slower, their shared memory costing blocks
// an SM: at B = 4096 x M = 256, 8 boxes up to 16 % (within 0.4 % at one of 12 launch shapes), 12
// boxes 7 to 46 % (H100).
inline constexpr int kForwardRing = 4;

// One launch of a fused kernel over all B x M boxes. Each thread takes boxesPerThread boxes a
// block-wide step apart (the plain kernel: a grid-wide step apart, as many as the grid leaves it);
// a block reduces its share and adds it to the totals, and the block whose add completes them forms
// the loss. ForwardBackward counts the valid boxes into the totals first, then scales the gradient
// once the count holds every block's.
struct FusedLaunch {
  FusedKind kind = FusedKind::Plain;
  DType predType = DType::F32;
  DType targetType = DType::U8;
  Validity validity = Validity::TargetY2;
  LossForm form = LossForm::SumGiou;
  float epsilon = 1e-5f;
  std::int64_t batch = 1;
  int boxes = 1;
  int block = 256;
  int boxesPerThread = 1;
  int grid = 1;
  const void* preds = nullptr;
  const void* targets = nullptr;
  const std::int32_t* counts = nullptr;  // Validity::Counts only
  float* loss = nullptr;
  void* grad = nullptr;          // ForwardBackward: [B, M, 4] of predType
  LossTotals* totals = nullptr;  // scratch, zero between calls

  // The plain kernel's ring: kForwardRing boxes of each thread in shared memory.
  std::size_t sharedBytes() const {
    if (kind != FusedKind::Plain) return 0;
    return std::size_t{kForwardRing} * 4 * (sizeOf(predType) + sizeOf(targetType)) *
           static_cast<std::size_t>(block);
  }

  std::int64_t chunks() const {
    const std::int64_t perBlock = std::int64_t{block} * boxesPerThread;
    return (batch * boxes + perBlock - 1) / perBlock;
  }
};

// Blocks a ForwardBackward launch may have: all of them resident at once, as blocks that wait for
// each other's counts need.
int cooperativeGridLimit(const FusedLaunch& launch, int smCount);
// The kernel this launch runs, for checking what its registers allow.
const void* fusedKernel(const FusedLaunch& launch);

void launchFused(const FusedLaunch& launch, cudaStream_t stream);

}  // namespace kwb::giou
