#include "kernels/giou/giouworkload.h"

#include <algorithm>
#include <cmath>

#include "kernels/cudacheck.h"
#include "kernels/giou/giouchain.h"
#include "kernels/giou/giouops.h"

namespace kwb::giou {
namespace {

constexpr int kScalars = 8;

std::size_t boxBytes(DType type) {
  return 4 * sizeOf(type);
}

// The unfused kinds' scratch, in floats: converted inputs, gathered boxes, the chain's columns,
// the mask, the sums' partials and a few scalars.
struct UnfusedScratch {
  float* preds;    // [n, 4] as float
  float* targets;  // [n, 4] as float
  void* gathered;  // concat: the valid boxes of preds, then of targets, as stored
  float* chain;
  float* mask;
  float* masked;
  float* partials;
  float* scalars;

  static std::size_t floats(std::int64_t n) {
    return static_cast<std::size_t>(16 * n) + chainScratchFloats(n) +
           static_cast<std::size_t>(2 * n) + kSumBlocks + kScalars;
  }
  UnfusedScratch(float* base, std::int64_t n) {
    preds = base;
    targets = preds + 4 * n;
    gathered = targets + 4 * n;
    chain = targets + 12 * n;
    mask = chain + chainScratchFloats(n);
    masked = mask + n;
    partials = masked + n;
    scalars = partials + kSumBlocks;
  }
};

}  // namespace

GiouWorkload::GiouWorkload(GiouConfig config, ParamSet derived)
    : config_(std::move(config)), derived_(std::move(derived)) {
  int next = 2;
  if (config_.problem.validity == Validity::Counts) slots_.counts = next++;
  if (config_.kind == GiouKind::Concat) slots_.offsets = next++;
  slots_.loss = next++;
  if (config_.kind == GiouKind::FusedForwardBackward) slots_.grad = next++;
  slots_.scratch = next;
  kernels_ = countKernels();
  derived_.set("kernels_per_call", std::to_string(kernels_));
}

GiouWorkload::~GiouWorkload() {
  if (graph_) cudaGraphExecDestroy(graph_);
}

std::vector<BufferSpec> GiouWorkload::buffers() const {
  const GiouProblem& p = config_.problem;
  const auto boxes = static_cast<std::size_t>(4 * p.total());
  std::vector<BufferSpec> specs{{"preds", p.predType, boxes, false},
                                {"targets", p.targetType, boxes, false}};
  if (slots_.counts >= 0)
    specs.push_back({"counts", DType::I32, static_cast<std::size_t>(p.batch), false});
  if (slots_.offsets >= 0)
    specs.push_back({"offsets", DType::I32, static_cast<std::size_t>(p.batch + 1), false});
  specs.push_back({"loss", DType::F32, 1, true});
  if (slots_.grad >= 0) specs.push_back({"grad", p.predType, boxes, true});
  specs.push_back({"scratch", DType::F32, scratchFloats(), false, true});
  return specs;
}

std::size_t GiouWorkload::scratchFloats() const {
  switch (config_.kind) {
    case GiouKind::PerSample: return UnfusedScratch::floats(config_.problem.boxes);
    case GiouKind::Concat:
    case GiouKind::Padded: return UnfusedScratch::floats(config_.problem.total());
    default: break;
  }
  return (sizeof(LossTotals) + sizeof(float) - 1) / sizeof(float);
}

std::uint64_t GiouWorkload::bytesMoved() const {
  const GiouProblem& p = config_.problem;
  const auto boxes = static_cast<std::uint64_t>(p.total());
  std::uint64_t bytes = boxes * (boxBytes(p.predType) + boxBytes(p.targetType)) + sizeof(float);
  if (slots_.counts >= 0) bytes += static_cast<std::uint64_t>(p.batch) * 4;
  if (slots_.grad >= 0) bytes += boxes * boxBytes(p.predType);
  return bytes;
}

std::optional<double> GiouWorkload::flops() const {
  // gioumath.h's formula for a valid pair: 32 operations for the GIoU, one to sum it, 37 more for
  // its gradient; and the one division of the sum by the count.
  return static_cast<double>(config_.problem.validTotal()) *
             (33.0 + (slots_.grad >= 0 ? 37.0 : 0.0)) +
         1;
}

double GiouWorkload::tolerance() const {
  if (slots_.grad < 0) return 1e-5;  // the loss alone, summed in float
  if (config_.problem.predType != DType::F16)
    return verificationTolerance(config_.problem.predType);
  // An f16 gradient is about |d loss / d GIoU| / 300 (boxes a few hundred pixels across), which
  // falls among f16's subnormals as the valid count grows: allow twice their rounding error,
  // a step of 2^-24 rms / sqrt(12), besides the usual.
  const double typical = std::fabs(config_.problem.lossSlope()) / 300;
  return verificationTolerance(DType::F16) + 2 * 0x1.0p-24 / std::sqrt(12.0) / typical;
}

std::size_t GiouWorkload::countKernels() const {
  const GiouProblem& p = config_.problem;
  const std::size_t casts =
      (p.predType != DType::F32 ? 1 : 0) + (p.targetType != DType::F32 ? 1 : 0);
  const std::size_t chain = casts + chainLaunches(p.form);
  switch (config_.kind) {
    case GiouKind::PerSample: {
      const auto samples = static_cast<std::size_t>(
          std::count_if(p.counts.begin(), p.counts.end(), [](auto c) { return c > 0; }));
      return samples * (chain + 3) + 1;  // each: chain, sum (2), add; then the scale
    }
    case GiouKind::Concat: return 1 + chain + 2 + 1;          // gather, chain, sum, scale
    case GiouKind::Padded: return chain + 1 + 1 + 2 + 2 + 2;  // mask, mul, 2 sums, clamp, div
    default: break;
  }
  return 1;
}

std::size_t GiouWorkload::launchesPerCall() const {
  if (config_.graph) return 1;
  return kernels_ + (config_.kind == GiouKind::PerSample ? 1 : 0);  // its memset
}

std::optional<HostArray> GiouWorkload::generateInput(std::size_t index, std::uint64_t seed) const {
  const GiouProblem& p = config_.problem;
  const int i = static_cast<int>(index);
  if (i == slots_.preds) return drawPreds(p, seed);
  if (i == slots_.targets) return drawTargets(p, seed);
  if (i == slots_.counts) return countsArray(p);
  if (i == slots_.offsets) {
    HostArray offsets(DType::I32, p.counts.size() + 1);
    std::int64_t sum = 0;
    for (std::size_t b = 0; b <= p.counts.size(); ++b) {
      offsets.set(b, static_cast<double>(sum));
      if (b < p.counts.size()) sum += p.counts[b];
    }
    return offsets;
  }
  return std::nullopt;
}

void GiouWorkload::enqueue(std::span<void* const> buffers, cudaStream_t stream) const {
  if (!config_.graph) return issue(buffers, stream);
  if (!graph_ ||
      !std::equal(buffers.begin(), buffers.end(), graphBuffers_.begin(), graphBuffers_.end())) {
    if (graph_) KWB_CUDA_CHECK(cudaGraphExecDestroy(graph_));
    graph_ = nullptr;
    cudaGraph_t graph = nullptr;
    KWB_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    try {
      issue(buffers, stream);
    } catch (...) {
      cudaStreamEndCapture(stream, &graph);
      if (graph) cudaGraphDestroy(graph);
      throw;
    }
    KWB_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    const cudaError_t instantiated = cudaGraphInstantiate(&graph_, graph, 0);
    cudaGraphDestroy(graph);
    KWB_CUDA_CHECK(instantiated);
    graphBuffers_.assign(buffers.begin(), buffers.end());
  }
  KWB_CUDA_CHECK(cudaGraphLaunch(graph_, stream));
}

void GiouWorkload::issue(std::span<void* const> buffers, cudaStream_t stream) const {
  if (config_.kind == GiouKind::PerSample || config_.kind == GiouKind::Concat ||
      config_.kind == GiouKind::Padded)
    return issueUnfused(buffers, stream);
  FusedLaunch l = config_.fused;
  l.preds = buffers[slots_.preds];
  l.targets = buffers[slots_.targets];
  if (slots_.counts >= 0) l.counts = static_cast<const std::int32_t*>(buffers[slots_.counts]);
  l.loss = static_cast<float*>(buffers[slots_.loss]);
  if (slots_.grad >= 0) l.grad = buffers[slots_.grad];
  auto* scratch = static_cast<float*>(buffers[slots_.scratch]);
  l.totals = reinterpret_cast<LossTotals*>(scratch);
  launchFused(l, stream);
}

void GiouWorkload::issueUnfused(std::span<void* const> buffers, cudaStream_t stream) const {
  const GiouProblem& p = config_.problem;
  const int block = config_.block;
  const float eps = static_cast<float>(p.epsilon);
  auto* loss = static_cast<float*>(buffers[slots_.loss]);
  const std::int64_t scratchBoxes = config_.kind == GiouKind::PerSample ? p.boxes : p.total();
  UnfusedScratch s(static_cast<float*>(buffers[slots_.scratch]), scratchBoxes);
  // Boxes as float [n, 4]: converted into scratch where they are stored otherwise.
  const auto asFloat = [&](const void* boxes, DType type, float* into, std::int64_t n) {
    if (type == DType::F32) return static_cast<const float*>(boxes);
    launchToFloat(boxes, type, into, 4 * n, block, stream);
    return static_cast<const float*>(into);
  };
  const auto* preds = static_cast<const std::byte*>(buffers[slots_.preds]);
  const auto* targets = static_cast<const std::byte*>(buffers[slots_.targets]);
  const float invValid = 1.0f / static_cast<float>(std::max<std::int64_t>(p.validTotal(), 1));

  switch (config_.kind) {
    case GiouKind::PerSample: {
      // The write-up's loop: each sample's valid boxes are a slice, one chain each.
      float* total = s.scalars;
      float* sampleSum = s.scalars + 1;
      KWB_CUDA_CHECK(cudaMemsetAsync(total, 0, sizeof(float), stream));
      for (std::int64_t b = 0; b < p.batch; ++b) {
        const std::int64_t n = p.counts[static_cast<std::size_t>(b)];
        if (n == 0) continue;
        const auto first = static_cast<std::size_t>(b * p.boxes);
        const float* pf = asFloat(preds + first * boxBytes(p.predType), p.predType, s.preds, n);
        const float* tf =
            asFloat(targets + first * boxBytes(p.targetType), p.targetType, s.targets, n);
        const float* terms = enqueueChain(pf, tf, n, eps, p.form, s.chain, block, stream);
        launchSum(terms, n, s.partials, sampleSum, stream);
        launchBinary(BinaryOp::Add, {total, 0}, {sampleSum, 0}, total, 0, 1, 1, block, stream);
      }
      launchScale(total, loss, invValid, 1, block, stream);
      return;
    }
    case GiouKind::Concat: {
      // Every sample's valid boxes packed together, then one chain.
      const std::int64_t n = p.validTotal();
      void* gatheredPreds = s.gathered;
      // Targets start half way into the gathered space: 16-byte boxes stay aligned.
      void* gatheredTargets = static_cast<std::byte*>(s.gathered) + 16 * scratchBoxes;
      launchGatherValid(preds, static_cast<int>(sizeOf(p.predType)), targets,
                        static_cast<int>(sizeOf(p.targetType)),
                        static_cast<const std::int32_t*>(buffers[slots_.offsets]), p.batch,
                        static_cast<int>(p.boxes), gatheredPreds, gatheredTargets, block, stream);
      const float* pf = asFloat(gatheredPreds, p.predType, s.preds, n);
      const float* tf = asFloat(gatheredTargets, p.targetType, s.targets, n);
      const float* terms = enqueueChain(pf, tf, n, eps, p.form, s.chain, block, stream);
      launchSum(terms, n, s.partials, s.scalars, stream);
      launchScale(s.scalars, loss, invValid, 1, block, stream);
      return;
    }
    default: break;
  }
  // Padded: the whole batch, invalid boxes masked out afterwards.
  const std::int64_t n = p.total();
  const float* pf = asFloat(preds, p.predType, s.preds, n);
  const float* tf = asFloat(targets, p.targetType, s.targets, n);
  const float* terms = enqueueChain(pf, tf, n, eps, p.form, s.chain, block, stream);
  if (p.validity == Validity::Counts)
    launchMaskFromCounts(static_cast<const std::int32_t*>(buffers[slots_.counts]),
                         static_cast<int>(p.boxes), s.mask, n, block, stream);
  else
    launchMaskFromY2(tf, s.mask, n, block, stream);
  launchBinary(BinaryOp::Mul, {terms, 1}, {s.mask, 1}, s.masked, 1, n, 1, block, stream);
  float* sum = s.scalars;
  float* count = s.scalars + 1;
  float* clamped = s.scalars + 2;
  launchSum(s.masked, n, s.partials, sum, stream);
  launchSum(s.mask, n, s.partials, count, stream);
  launchClampMin(count, clamped, 1.0f, 1, block, stream);
  launchBinary(BinaryOp::Div, {sum, 0}, {clamped, 0}, loss, 0, 1, 1, block, stream);
}

void GiouWorkload::reference(std::span<const HostArray> inputs, std::size_t output,
                             std::size_t begin, std::span<double> out) const {
  const HostArray& preds = inputs[static_cast<std::size_t>(slots_.preds)];
  const HostArray& targets = inputs[static_cast<std::size_t>(slots_.targets)];
  if (output == 0) {
    out[0] = referenceLoss(config_.problem, preds, targets);
    return;
  }
  referenceGradient(config_.problem, preds, targets, begin, out);
}

}  // namespace kwb::giou
