// The GIoU loss family: the write-up's path from a per-sample host loop to one fused kernel, and
// what it left undone: the backward pass, 16-bit preds, explicit counts.
#include <algorithm>
#include <memory>
#include <string>

#include "core/error.h"
#include "kernels/cudacheck.h"
#include "kernels/giou/giouworkload.h"
#include "kernels/launchgeometry.h"
#include "kernels/registry.h"

namespace kwb {
namespace {

using giou::GiouKind;

// Blocks of a plain fused launch at most: each adds its sums to the same totals with atomics.
constexpr std::int64_t kMaxFusedGrid = 8192;
// Boxes a thread takes at most.
constexpr int kMaxBoxesPerThread = 16;

// Boxes in a batch at most: 2^27 boxes of f32 preds and targets are 4 GiB.
constexpr std::int64_t kMaxBoxes = std::int64_t{1} << 27;
// Counts are drawn from this seed: every variant and run of a problem sees the same samples.
constexpr std::uint64_t kCountSeed = 1;

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

// auto's grid for the plain kernel: a whole number of blocks an SM, as few as hold the batch in
// the most boxes a thread allowed, so that every SM has the same share (the kernel walks the batch
// a grid's width apart). One block an SM ran 1.03 to 1.27x faster than 4 boxes a thread at B = 256
// to 2^15 (M = 256, blocks of 256, H200; PERFORMANCE.md, GIoU fifth pass).
std::int64_t autoPlainGrid(std::int64_t boxes, int block, int smCount) {
  const std::int64_t sms = std::max(smCount, 1);
  const std::int64_t perSm = ceilDiv(boxes, sms * block * kMaxBoxesPerThread);
  return std::min({sms * perSm, ceilDiv(boxes, block), kMaxFusedGrid});
}

std::string kindName(GiouKind kind) {
  switch (kind) {
    case GiouKind::PerSample: return "per_sample";
    case GiouKind::Concat: return "concat";
    case GiouKind::Padded: return "padded";
    case GiouKind::Fused: return "fused";
    case GiouKind::FusedConditional: return "fused_conditional";
    case GiouKind::FusedForwardBackward: break;
  }
  return "fused_fwd_bwd";
}

bool unfused(GiouKind kind) {
  return kind == GiouKind::PerSample || kind == GiouKind::Concat || kind == GiouKind::Padded;
}

std::vector<ParamSpec> params(GiouKind kind) {
  std::vector<ParamSpec> specs{
      integerParam("batch", ParamRole::Problem, 1, 1 << 20, "1024", "samples",
                   "B: samples in the batch"),
      integerParam("boxes", ParamRole::Problem, 1, 1 << 16, "256", "boxes",
                   "M: boxes per sample, padded; the valid ones come first"),
      choiceParam("dtype", ParamRole::Problem, {"f32", "bf16", "f16"}, "f32", "",
                  "preds' element type (and the gradient's); the math runs in f32"),
      choiceParam("target_dtype", ParamRole::Problem, {"u8", "f32"}, "u8", "",
                  "targets' element type: u8 pixel corners as in the write-up, or f32"),
      choiceParam("valid", ParamRole::Problem, {"normal", "uniform", "constant"}, "normal", "",
                  "valid boxes per sample: floor(|N(0, 3)|) clipped to M as in the write-up, "
                  "uniform over 0..M, or valid_count"),
      integerParam("valid_count", ParamRole::Problem, 0, 1 << 16, "8", "boxes",
                   "valid boxes in every sample where valid=constant (at most M)"),
      choiceParam("validity", ParamRole::Problem, {"y2", "counts"}, "y2", "",
                  "how a kernel tells valid targets: y2 > 0 as the write-up pads, or an "
                  "explicit counts [B] input"),
      choiceParam("loss", ParamRole::Problem, {"sum_giou", "mean_1_minus_giou"}, "sum_giou", "",
                  "sum(GIoU) / valid count as in the write-up, or torchvision's mean of 1 - GIoU"),
      choiceParam("epsilon", ParamRole::Problem, {"1e-5", "1e-6", "1e-7", "1e-4", "1e-3"}, "1e-5",
                  "", "the floor of the union and the enclosing area"),
      integerParam("zero_area", ParamRole::Problem, 0, 100, "0", "%",
                   "boxes drawn with no area (x2 = x1), preds and targets alike"),
      integerParam("block_size", ParamRole::Launch, 32, 1024, "256", "threads", "threads per block",
                   32),
  };
  if (unfused(kind)) {
    specs.push_back(choiceParam("graph", ParamRole::Launch, {"off", "on"}, "off", "",
                                "on: the call's launches captured once as a CUDA graph and "
                                "replayed, one launch a call"));
  } else {
    // auto for the plain kernel alone: the others lost with it at some batches (the conditional
    // kernel at B = 1024, 5.70 -> 7.55 us; forward + backward at 2^15, 75.6 -> 80.8 us; H200).
    const bool plain = kind == GiouKind::Fused;
    ParamSpec boxes = integerParam(
        "boxes_per_thread", ParamRole::Launch, 1, kMaxBoxesPerThread, plain ? "auto" : "4", "boxes",
        plain ? "boxes each thread takes at most, a grid's width apart; auto: a whole number of "
                "blocks an SM, as few as hold the batch in 16 boxes a thread"
              : "boxes each thread takes, a block's width apart");
    boxes.allowsAuto = plain;
    specs.push_back(boxes);
  }
  return specs;
}

giou::GiouProblem problemOf(const ParamSet& p) {
  giou::GiouProblem out;
  out.batch = p.getInt("batch");
  out.boxes = p.getInt("boxes");
  out.predType = *parseDType(p.get("dtype"));
  out.targetType = *parseDType(p.get("target_dtype"));
  out.validity = p.get("validity") == "counts" ? giou::Validity::Counts : giou::Validity::TargetY2;
  out.form =
      p.get("loss") == "sum_giou" ? giou::LossForm::SumGiou : giou::LossForm::MeanOneMinusGiou;
  out.epsilon = std::stod(p.get("epsilon"));
  out.zeroAreaPercent = static_cast<int>(p.getInt("zero_area"));
  const std::string valid = p.get("valid");
  const auto distribution = valid == "normal"    ? giou::CountDistribution::Normal
                            : valid == "uniform" ? giou::CountDistribution::Uniform
                                                 : giou::CountDistribution::Constant;
  out.counts =
      giou::drawCounts(out.batch, out.boxes, distribution, p.getInt("valid_count"), kCountSeed);
  return out;
}

class GiouVariant final : public Variant {
 public:
  GiouVariant(GiouKind kind, std::string summary, std::string teaches)
      : Variant({"giou", kindName(kind), std::move(summary), std::move(teaches), params(kind),
                 "batch"}),
        kind_(kind) {}

  void check(const ParamSet& p) const override {
    if (p.get("valid") == "constant" && p.getInt("valid_count") > p.getInt("boxes"))
      throw paramError("valid_count", p.get("valid_count") + " valid boxes in samples of " +
                                          p.get("boxes") + "; allowed: 0.." + p.get("boxes"));
    if (p.getInt("batch") * p.getInt("boxes") > kMaxBoxes)
      throw paramError("batch", p.get("batch") + " x " + p.get("boxes") +
                                    " boxes is past the 2^27 a batch may hold");
  }

  std::unique_ptr<Workload> create(const ParamSet& p, const DeviceInfo& device) const override {
    giou::GiouConfig config;
    config.kind = kind_;
    config.problem = problemOf(p);
    config.block = static_cast<int>(p.getInt("block_size"));
    config.graph = p.has("graph") && p.get("graph") == "on";
    ParamSet derived;
    derived.set("valid_boxes", std::to_string(config.problem.validTotal()));
    if (!unfused(kind_)) {
      giou::FusedLaunch& l = config.fused;
      l.kind = kind_ == GiouKind::Fused              ? giou::FusedKind::Plain
               : kind_ == GiouKind::FusedConditional ? giou::FusedKind::Conditional
                                                     : giou::FusedKind::ForwardBackward;
      l.predType = config.problem.predType;
      l.targetType = config.problem.targetType;
      l.validity = config.problem.validity;
      l.form = config.problem.form;
      l.epsilon = static_cast<float>(config.problem.epsilon);
      l.batch = config.problem.batch;
      l.boxes = static_cast<int>(config.problem.boxes);
      l.block = config.block;
      std::int64_t grid = 0;
      if (p.isAuto("boxes_per_thread")) {
        grid = autoPlainGrid(l.batch * l.boxes, l.block, device.smCount);
        l.boxesPerThread = static_cast<int>(ceilDiv(l.batch * l.boxes, grid * l.block));
      } else {
        l.boxesPerThread = static_cast<int>(p.getInt("boxes_per_thread"));
        grid = std::min(l.chunks(), kMaxFusedGrid);
      }
      derived.set("boxes_per_thread", std::to_string(l.boxesPerThread));
      checkBlockFits(giou::fusedKernel(l), config.block);
      checkBlockSharedFits(l.sharedBytes(), config.block, device.ordinal);
      if (kind_ == GiouKind::FusedForwardBackward)
        grid = std::min<std::int64_t>(grid, giou::cooperativeGridLimit(l, device.smCount));
      l.grid = static_cast<int>(std::max<std::int64_t>(grid, 1));
      const ParamSet described = describeGrid(l.grid, config.block, device);
      for (const auto& [name, value] : described.values()) derived.set(name, value);
    }
    return std::make_unique<giou::GiouWorkload>(std::move(config), std::move(derived));
  }

 private:
  GiouKind kind_;
};

}  // namespace

void registerGiouFamily(Registry& registry) {
  registry.addFamily("giou", "the GIoU loss of padded boxes: forward, backward, fused");
  const auto add = [&](GiouKind kind, std::string summary, std::string teaches) {
    registry.addVariant(
        std::make_unique<GiouVariant>(kind, std::move(summary), std::move(teaches)));
  };
  add(GiouKind::PerSample, "a chain of small kernels for each sample, from a host loop",
      "The write-up's first loss: each sample's valid boxes are a slice, and the formula runs "
      "as two dozen one-operation kernels for each. A batch of 1024 launches thousands of "
      "kernels of a few boxes each: compare the wall time with the GPU time, and count the "
      "launches.");
  add(GiouKind::Concat, "the valid boxes gathered, then one chain",
      "One gather packs every sample's valid boxes, then the chain runs once over all of them: "
      "the launches no longer grow with the batch, but every step still goes through memory.");
  add(GiouKind::Padded, "one chain over the whole padded batch, masked",
      "No host loop and no gather: the chain runs over all B x M boxes and a mask zeroes the "
      "padding. Most of the work is on boxes that are thrown away, and the launches are still "
      "two dozen; try graph=on.");
  add(GiouKind::Fused, "one kernel: GIoU, mask and the reduction",
      "The write-up's kernel, with the sum inside: each thread computes its boxes' GIoU in "
      "registers, each block reduces, and the last block forms the loss. One launch, and each "
      "box read once.");
  add(GiouKind::FusedConditional, "fused, skipping invalid boxes before reading their preds",
      "A thread checks its target first and reads the pred only for a valid box. With a few "
      "valid boxes in 256 most preds are never read; with validity=counts not even the "
      "targets are.");
  add(GiouKind::FusedForwardBackward, "the loss and d loss / d preds in one cooperative kernel",
      "The backward pass the write-up left undone. The gradient is scaled by 1 / valid count, "
      "known only once every block has counted: each block adds its count to one total and "
      "waits until it holds every block's, a grid-wide barrier between the count and the pass "
      "that writes the loss and every box's gradient.");
}

}  // namespace kwb
