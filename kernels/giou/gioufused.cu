// Fused GIoU kernels: one launch computes every box's GIoU (and gradient), reduces it and forms
// the loss. What the unfused chains write to memory between two dozen launches stays in
// registers here.
#include <cooperative_groups.h>
#include <cuda_pipeline_primitives.h>
#include <cuda/atomic>

#include "core/error.h"
#include "kernels/cudacheck.h"
#include "kernels/giou/giouboxes.cuh"
#include "kernels/giou/gioufused.h"

namespace kwb::giou {
namespace {

namespace cg = cooperative_groups;

// Shared memory a block gets without opting in to more.
constexpr std::size_t kDefaultSharedBytes = 48 * 1024;

// The batch of kernels that load the next before computing one (fused_conditional, fused_fwd_bwd).
constexpr int kPipelinedBatch = 2;
// fused_fwd_bwd's count: targets read at once a thread, and the boxes whose validity it keeps.
constexpr int kCountBatch = 4;
constexpr int kKnownBoxes = 64;

// A block's share of the loss: its valid boxes' GIoU sum and their count.
struct Share {
  float sum;
  unsigned count;
};
__device__ Share operator+(Share a, Share b) {
  return {a.sum + b.sum, a.count + b.count};
}

__device__ unsigned shuffleXor(unsigned v, int lanes) {
  return __shfl_xor_sync(0xffffffffu, v, lanes);
}
__device__ Share shuffleXor(Share v, int lanes) {
  return {__shfl_xor_sync(0xffffffffu, v.sum, lanes), shuffleXor(v.count, lanes)};
}

template <typename V>
__device__ V blockReduce(V v) {
  __shared__ V warpTotals[32];
  __syncthreads();  // the array may still be read from a previous reduction
  for (int o = 16; o > 0; o /= 2) v = v + shuffleXor(v, o);
  if (threadIdx.x % 32 == 0) warpTotals[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x < blockDim.x / 32 ? warpTotals[threadIdx.x] : V{};
  if (threadIdx.x < 32)
    for (int o = 16; o > 0; o /= 2) v = v + shuffleXor(v, o);
  return v;  // in thread 0
}

// Box indices are 32-bit: a batch holds at most 2^27 boxes (the family refuses more), and 64-bit
// index arithmetic was a good part of what the kernels issued per box.
struct Shape {
  int total;
  int boxes;
  int perThread;
  int chunks;
};

// The L2 flush between calls leaves the totals in DRAM: fetching them while the boxes load takes
// their latency off the end of the kernel, where every block adds to them.
__device__ __forceinline__ void prefetchL2(const void* address) {
  asm volatile("prefetch.global.L2 [%0];" ::"l"(address));
}

template <bool Counts, typename T>
__device__ __forceinline__ bool isValid(const T* targets, const std::int32_t* counts, int boxes,
                                        int box) {
  if constexpr (Counts) return box % boxes < counts[box / boxes];
  return loadY2(targets, box) > 0.0f;
}

// One thread's N boxes of a chunk, every load issued before the first result is needed. A box
// counts as valid only when its target is (validOf(u, box) says whether box u of the batch is);
// only valid boxes are read. Boxes past the end (a chunk past the last, say) are out of range and
// load nothing.
template <int N>
struct Batch {
  int box[N];
  bool inRange[N];
  bool valid[N];
  Box<float> pred[N];
  Box<float> target[N];
};

template <int N, typename P, typename T, typename ValidOf>
__device__ __forceinline__ Batch<N> loadBatch(const P* preds, const T* targets, const Shape& shape,
                                              int chunk, int u0, ValidOf validOf) {
  Batch<N> b;
#pragma unroll
  for (int u = 0; u < N; ++u) {
    b.box[u] = (chunk * shape.perThread + u0 + u) * blockDim.x + threadIdx.x;
    b.inRange[u] = u0 + u < shape.perThread && b.box[u] < shape.total;
    b.valid[u] = b.inRange[u] && validOf(u, b.box[u]);
  }
#pragma unroll
  for (int u = 0; u < N; ++u) {
    if (!b.valid[u]) continue;
    b.target[u] = loadBox(targets, b.box[u]);
    b.pred[u] = loadBox(preds, b.box[u]);
  }
  return b;
}

// Where a thread's next batch starts: the next N boxes of its chunk, else its next chunk's first.
template <int N>
__device__ __forceinline__ void advance(const Shape& shape, int& chunk, int& u0) {
  u0 += N;
  if (u0 < shape.perThread) return;
  u0 = 0;
  chunk += gridDim.x;
}

using TotalRef = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;

// Where a total's count of blocks starts and the sum's fixed-point unit: the count of blocks takes
// the grid's bit width at the top, the sum of 1 - GIoU (at most 2 a box) the bits below it, with
// one to spare for the blocks' roundings. At B = 4096 x M = 256 in 264 blocks a unit is 2^-32; at
// 2^27 boxes in 8192 blocks (the most the family launches), 2^-20.
struct TotalsLayout {
  int doneShift;
  double unitsPerOne;
  __device__ static TotalsLayout of(int boxes) {
    const int doneShift = 32 + __clz(gridDim.x);
    const int sumBits = 64 - __clzll(2ull * static_cast<unsigned>(boxes));
    return {doneShift, static_cast<double>(1ull << (doneShift - 1 - sumBits))};
  }
  __device__ unsigned long long oneBlock() const { return 1ull << doneShift; }
  // What a block adds to the sum: 1 - GIoU over its valid boxes, never negative, so that it cannot
  // borrow from the count of blocks above it.
  __device__ unsigned long long sumShare(Share share) const {
    const double complement =
        fmax(static_cast<double>(share.count) - static_cast<double>(share.sum), 0.0);
    return static_cast<unsigned long long>(__double2ll_rn(complement * unitsPerOne)) + oneBlock();
  }
  __device__ bool complete(unsigned long long total) const {
    return total >> doneShift == gridDim.x;
  }
  __device__ unsigned long long value(unsigned long long total) const {
    return total & (oneBlock() - 1);
  }
  __device__ float loss(LossForm form, unsigned long long sumTotal,
                        unsigned long long count) const {
    const double complement = static_cast<double>(value(sumTotal)) / unitsPerOne;
    const double divisor = count > 0 ? static_cast<double>(count) : 1.0;
    return static_cast<float>(
        (form == LossForm::SumGiou ? static_cast<double>(count) - complement : complement) /
        divisor);
  }
};

// The forward kernels' end: the block's share reduced and added to the totals, the sum and the
// count at once. The add that completes a total returns it whole to its block; the blocks that
// complete the sum and the count meet in the mailbox, and the one that arrives second has both
// and writes the loss. Only the adds' returned values carry what that block needs: no fence, no
// load after them. The blocks that complete a total zero it for the next call.
__device__ void addBlockToLoss(Share share, LossForm form, int boxes, LossTotals* totals,
                               float* loss) {
  share = blockReduce(share);
  if (threadIdx.x != 0) return;
  const auto layout = TotalsLayout::of(boxes);
  TotalRef sumTotal(totals->sum), countTotal(totals->count), mailbox(totals->mailbox);
  const unsigned long long sumAdd = layout.sumShare(share);
  const unsigned long long countAdd = share.count + layout.oneBlock();
  unsigned long long s = sumTotal.fetch_add(sumAdd, cuda::memory_order_relaxed) + sumAdd;
  unsigned long long c = countTotal.fetch_add(countAdd, cuda::memory_order_relaxed) + countAdd;
  const bool sumDone = layout.complete(s), countDone = layout.complete(c);
  if (!sumDone && !countDone) return;
  if (sumDone) sumTotal.store(0, cuda::memory_order_relaxed);
  if (countDone) countTotal.store(0, cuda::memory_order_relaxed);
  if (!(sumDone && countDone)) {
    const unsigned long long other = mailbox.exchange(sumDone ? s : c, cuda::memory_order_relaxed);
    if (other == 0) return;  // the other total's block arrives second
    mailbox.store(0, cuda::memory_order_relaxed);
    (sumDone ? c : s) = other;
  }
  *loss = layout.loss(form, s, layout.value(c));
}

// The write-up's kernel: every box computed, then multiplied by its validity. Each box's pred
// and target go through the thread's ring slot: copied kForwardRing boxes ahead, read once landed.
template <typename P, typename T, bool Counts>
__global__ void giouForwardKernel(const P* __restrict__ preds, const T* __restrict__ targets,
                                  const std::int32_t* __restrict__ counts, Shape shape,
                                  float epsilon, LossForm form, LossTotals* totals, float* loss) {
  if (threadIdx.x == 0) prefetchL2(totals);
  extern __shared__ __align__(16) unsigned char ring[];
  P* predRing = reinterpret_cast<P*>(ring);  // [kForwardRing][blockDim.x][4]
  T* targetRing = reinterpret_cast<T*>(ring + kForwardRing * blockDim.x * 4 * sizeof(P));
  const auto slot = [&](int k) { return (k % kForwardRing) * blockDim.x + threadIdx.x; };
  // A thread's k-th box: a grid's width of boxes apart, so that any grid shares the batch out to
  // within a box a thread. A grid of a whole number of blocks an SM then gives every SM the same
  // share, which chunks of whole boxes a thread cannot (B = 4096 x M = 256 in chunks of 16 boxes
  // a thread is 256 blocks: two on 124 of an H100's SMs, one on 8).
  const auto boxAt = [&](int k) {
    return (k * static_cast<int>(gridDim.x) + static_cast<int>(blockIdx.x)) *
               static_cast<int>(blockDim.x) +
           static_cast<int>(threadIdx.x);
  };
  int issued = 0;
  const auto issue = [&] {
    if (const int box = boxAt(issued); box < shape.total) {
      const int at = slot(issued);
      __pipeline_memcpy_async(predRing + 4 * at, preds + 4 * box, 4 * sizeof(P));
      __pipeline_memcpy_async(targetRing + 4 * at, targets + 4 * box, 4 * sizeof(T));
    }
    __pipeline_commit();
    ++issued;
  };
#pragma unroll
  for (int k = 0; k < kForwardRing; ++k) issue();
  float sum = 0;
  unsigned count = 0;
  int k = 0;
  for (int box = boxAt(k); box < shape.total; box = boxAt(++k)) {
    __pipeline_wait_prior(kForwardRing - 1);
    const Box<float> pred = loadBox(predRing, slot(k));
    const Box<float> target = loadBox(targetRing, slot(k));
    const bool counted = Counts ? box % shape.boxes < counts[box / shape.boxes] : target.y2 > 0.0f;
    sum += giouOf(pred, target, epsilon) * static_cast<float>(counted);
    count += counted;
    issue();  // into slot(k): its box is in registers and used
  }
  addBlockToLoss({sum, count}, form, shape.total, totals, loss);
}

// Invalid boxes skipped: a target's y2 read before its boxes, two round trips a batch, so the
// next batch loads before this one's math, a smaller batch to pay for the registers. On an H100
// that took B = 4096 x M = 256 from 15.2 to 14.4 us and the default batch from 6.8 to 6.3 us.
template <typename P, typename T, bool Counts>
__global__ void giouConditionalKernel(const P* __restrict__ preds, const T* __restrict__ targets,
                                      const std::int32_t* __restrict__ counts, Shape shape,
                                      float epsilon, LossForm form, LossTotals* totals,
                                      float* loss) {
  if (threadIdx.x == 0) prefetchL2(totals);
  float sum = 0;
  unsigned count = 0;
  int chunk = blockIdx.x;
  int u0 = 0;
  const auto validOf = [&](int, int box) {
    return isValid<Counts>(targets, counts, shape.boxes, box);
  };
  auto b = loadBatch<kPipelinedBatch>(preds, targets, shape, chunk, u0, validOf);
  while (chunk < shape.chunks) {
    advance<kPipelinedBatch>(shape, chunk, u0);
    const auto next = loadBatch<kPipelinedBatch>(preds, targets, shape, chunk, u0, validOf);
#pragma unroll
    for (int u = 0; u < kPipelinedBatch; ++u) {
      if (!b.valid[u]) continue;
      sum += giouOf(b.pred[u], b.target[u], epsilon);
      ++count;
    }
    b = next;
  }
  addBlockToLoss({sum, count}, form, shape.total, totals, loss);
}

// At most 64 registers: 4 blocks of 256 an SM, where the compiler takes up to 70 (with counts) and
// leaves 3. With the validity kept from the count, on an H200: B = 4096 x M = 256 18.8 -> 18.3 us,
// with f16 preds 19.3 -> 17.7, B = 16384 39.7 -> 36.7; the count alone, at 72 registers, was
// slower (19.4, 47.7).
template <typename P, typename T, bool Counts>
__global__ void __maxnreg__(64)
    giouForwardBackwardKernel(const P* __restrict__ preds, const T* __restrict__ targets,
                              const std::int32_t* __restrict__ counts, Shape shape,
                              std::int64_t batch, float epsilon, LossForm form, LossTotals* totals,
                              float* loss, P* __restrict__ grad) {
  cg::grid_group grid = cg::this_grid();
  // The gradient's scale needs the valid count over the whole batch first. With validity in the
  // targets, each thread counts the boxes it computes later, in that order, and keeps whether its
  // first kKnownBoxes are valid: their targets and preds then load in one round trip, not two.
  unsigned count = 0;
  unsigned long long known = 0;  // bit i: the thread's i-th box is valid
  if constexpr (Counts) {
    for (std::int64_t b = grid.thread_rank(); b < batch; b += grid.size()) count += counts[b];
  } else {
    for (int chunk = blockIdx.x, first = 0; chunk < shape.chunks;
         chunk += gridDim.x, first += shape.perThread) {
      for (int u0 = 0; u0 < shape.perThread; u0 += kCountBatch) {
        float y2[kCountBatch];
#pragma unroll
        for (int u = 0; u < kCountBatch; ++u) {
          const int box = (chunk * shape.perThread + u0 + u) * blockDim.x + threadIdx.x;
          y2[u] = u0 + u < shape.perThread && box < shape.total ? loadY2(targets, box) : 0.0f;
        }
#pragma unroll
        for (int u = 0; u < kCountBatch; ++u) {
          const bool valid = y2[u] > 0.0f;  // false past the chunk's end or the batch's
          const int i = first + u0 + u;
          count += valid;
          if (i < kKnownBoxes) known |= static_cast<unsigned long long>(valid) << i;
        }
      }
    }
  }
  // The count is the grid-wide barrier: each block adds its count with one block above it and
  // waits until the total holds every block, one add a block where a grid sync and a read of the
  // count after it took three round trips (H200: 1.0-1.4 us off every batch). The block that
  // completes the sum zeroes the count, as every block has read it by then.
  count = blockReduce(count);
  __shared__ float slope;
  __shared__ unsigned total;
  if (threadIdx.x == 0) {
    const auto layout = TotalsLayout::of(shape.total);
    TotalRef countTotal(totals->count);
    const unsigned long long add = count + layout.oneBlock();
    unsigned long long c = countTotal.fetch_add(add, cuda::memory_order_relaxed) + add;
    while (c >> layout.doneShift < gridDim.x) c = countTotal.load(cuda::memory_order_relaxed);
    total = static_cast<unsigned>(layout.value(c));
    slope = (form == LossForm::SumGiou ? 1.0f : -1.0f) / static_cast<float>(total > 0 ? total : 1);
  }
  __syncthreads();

  // The next batch loads during this one's math; a kept box loads its target and pred in one round
  // trip, any other in two, like fused_conditional. validOf(i, box): whether the thread's i-th
  // box, box of the batch, is valid.
  const auto pass = [&](auto validOf) {
    Share share{0.0f, 0u};
    int chunk = blockIdx.x;
    int u0 = 0;
    int first = 0;  // the index among the thread's boxes of its chunk's first
    const auto validOfBatch = [&](int u, int box) { return validOf(first + u0 + u, box); };
    auto b = loadBatch<kPipelinedBatch>(preds, targets, shape, chunk, u0, validOfBatch);
    while (chunk < shape.chunks) {
      advance<kPipelinedBatch>(shape, chunk, u0);
      if (u0 == 0) first += shape.perThread;
      const auto next = loadBatch<kPipelinedBatch>(preds, targets, shape, chunk, u0, validOfBatch);
#pragma unroll
      for (int u = 0; u < kPipelinedBatch; ++u) {
        if (!b.inRange[u]) continue;
        Box<float> g{0, 0, 0, 0};
        if (b.valid[u]) {
          share.sum += giouWithGradient(b.pred[u], b.target[u], epsilon, g);
          ++share.count;
          g = {g.x1 * slope, g.y1 * slope, g.x2 * slope, g.y2 * slope};
        }
        storeBox(grad, b.box[u], g);
      }
      b = next;
    }
    return share;
  };
  const auto knownValid = [&](int i, int) { return (known >> i & 1) != 0; };
  const auto validOf = [&](int i, int box) {
    if (!Counts && i < kKnownBoxes) return knownValid(i, box);
    return isValid<Counts>(targets, counts, shape.boxes, box);
  };
  // Where every box of the block's threads is kept (B = 4096 x M = 256: 8 a thread), a pass that
  // does not test whether each box is among the kept: no branch a box, 2 % fewer instructions,
  // 2.2 issued a cycle an SM against 2.0, and B = 4096 from 15.5 to 14.5 us on an H200.
  const int chunksHere = (shape.chunks - static_cast<int>(blockIdx.x) + gridDim.x - 1) / gridDim.x;
  Share share =
      !Counts && chunksHere * shape.perThread <= kKnownBoxes ? pass(knownValid) : pass(validOf);
  // The count is known already: each block adds its sum alone, and the block whose add completes
  // it writes the loss.
  share = blockReduce(share);
  if (threadIdx.x != 0) return;
  const auto layout = TotalsLayout::of(shape.total);
  TotalRef sumTotal(totals->sum);
  const unsigned long long sumAdd = layout.sumShare(share);
  const unsigned long long s = sumTotal.fetch_add(sumAdd, cuda::memory_order_relaxed) + sumAdd;
  if (!layout.complete(s)) return;
  sumTotal.store(0, cuda::memory_order_relaxed);
  TotalRef(totals->count).store(0, cuda::memory_order_relaxed);
  *loss = layout.loss(form, s, total);
}

template <typename P, typename T, bool Counts>
void launchTyped(const FusedLaunch& l, cudaStream_t stream) {
  const Shape shape{static_cast<int>(l.batch * l.boxes), l.boxes, l.boxesPerThread,
                    static_cast<int>(l.chunks())};
  const auto* preds = static_cast<const P*>(l.preds);
  const auto* targets = static_cast<const T*>(l.targets);
  if (l.kind == FusedKind::ForwardBackward) {
    // Cooperative launches take their arguments by address.
    const std::int32_t* counts = l.counts;
    Shape s = shape;
    std::int64_t batch = l.batch;
    float epsilon = l.epsilon;
    LossForm form = l.form;
    LossTotals* totals = l.totals;
    float* loss = l.loss;
    auto* grad = static_cast<P*>(l.grad);
    void* args[] = {&preds, &targets, &counts, &s, &batch, &epsilon, &form, &totals, &loss, &grad};
    KWB_CUDA_CHECK(cudaLaunchCooperativeKernel(
        reinterpret_cast<const void*>(giouForwardBackwardKernel<P, T, Counts>), l.grid, l.block,
        args, 0, stream));
    return;
  }
  if (l.kind == FusedKind::Plain) {
    const std::size_t shared = l.sharedBytes();
    const auto kernel = giouForwardKernel<P, T, Counts>;
    // A block opts in past 48 KiB of dynamic and static shared memory together: blocks of 1024
    // with f16 preds and u8 targets take a ring of exactly 48 KiB, and the block reduction more.
    static const std::size_t staticShared = [&] {
      cudaFuncAttributes attributes{};
      KWB_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
      return attributes.sharedSizeBytes;
    }();
    if (shared + staticShared > kDefaultSharedBytes)
      KWB_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(shared)));
    kernel<<<l.grid, l.block, shared, stream>>>(preds, targets, l.counts, shape, l.epsilon, l.form,
                                                l.totals, l.loss);
    KWB_CHECK_LAUNCH("giouForwardKernel");
    return;
  }
  giouConditionalKernel<P, T, Counts><<<l.grid, l.block, 0, stream>>>(
      preds, targets, l.counts, shape, l.epsilon, l.form, l.totals, l.loss);
  KWB_CHECK_LAUNCH("giouConditionalKernel");
}

template <typename F>
void withTypes(const FusedLaunch& l, F&& f) {
  const auto withTarget = [&](auto pred) {
    const auto withValidity = [&](auto pred2, auto target) {
      if (l.validity == Validity::Counts) return f(pred2, target, std::true_type{});
      f(pred2, target, std::false_type{});
    };
    if (l.targetType == DType::F32) return withValidity(pred, float{});
    if (l.targetType == DType::U8) return withValidity(pred, std::uint8_t{});
    throw Error(ErrorKind::Internal, "giou: targets of " + std::string(toString(l.targetType)));
  };
  switch (l.predType) {
    case DType::F32: return withTarget(float{});
    case DType::F16: return withTarget(__half{});
    case DType::BF16: return withTarget(__nv_bfloat16{});
    default: break;
  }
  throw Error(ErrorKind::Internal, "giou: preds of " + std::string(toString(l.predType)));
}

}  // namespace

int cooperativeGridLimit(const FusedLaunch& l, int smCount) {
  int perSm = 0;
  withTypes(l, [&](auto pred, auto target, auto counts) {
    using P = decltype(pred);
    using T = decltype(target);
    KWB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &perSm, giouForwardBackwardKernel<P, T, decltype(counts)::value>, l.block, 0));
  });
  return perSm * smCount;
}

const void* fusedKernel(const FusedLaunch& l) {
  const void* kernel = nullptr;
  withTypes(l, [&](auto pred, auto target, auto counts) {
    using P = decltype(pred);
    using T = decltype(target);
    constexpr bool kCounts = decltype(counts)::value;
    kernel = l.kind == FusedKind::ForwardBackward
                 ? reinterpret_cast<const void*>(giouForwardBackwardKernel<P, T, kCounts>)
             : l.kind == FusedKind::Conditional
                 ? reinterpret_cast<const void*>(giouConditionalKernel<P, T, kCounts>)
                 : reinterpret_cast<const void*>(giouForwardKernel<P, T, kCounts>);
  });
  return kernel;
}

void launchFused(const FusedLaunch& l, cudaStream_t stream) {
  withTypes(l, [&](auto pred, auto target, auto counts) {
    launchTyped<decltype(pred), decltype(target), decltype(counts)::value>(l, stream);
  });
}

}  // namespace kwb::giou
