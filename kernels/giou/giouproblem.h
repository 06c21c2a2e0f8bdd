#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/dtype.h"
#include "core/hostarray.h"

namespace kwb::giou {

// Which targets count: those whose y2 > 0 (the write-up's padding test), or the first
// counts[b] of sample b, from an explicit counts [B] input.
enum class Validity { TargetY2, Counts };

// sum(GIoU) / valid count (the write-up's), or torchvision's mean over valid boxes of 1 - GIoU.
// Both divide by max(valid count, 1): no valid box at all gives 0.
enum class LossForm { SumGiou, MeanOneMinusGiou };

// How many boxes of each sample are valid: floor(|N(0, 3)|) clipped to M as in the write-up,
// uniform over 0..M, or one constant.
enum class CountDistribution { Normal, Uniform, Constant };

// preds [B, M, 4] and padded targets [B, M, 4] as (x1, y1, x2, y2).
struct GiouProblem {
  std::int64_t batch = 1;  // B
  std::int64_t boxes = 1;  // M: boxes per sample, valid ones first
  DType predType = DType::F32;
  DType targetType = DType::U8;
  Validity validity = Validity::TargetY2;
  LossForm form = LossForm::SumGiou;
  double epsilon = 1e-5;
  int zeroAreaPercent = 0;           // boxes drawn with x2 == x1
  std::vector<std::int32_t> counts;  // valid boxes of each sample

  std::int64_t total() const { return batch * boxes; }
  std::int64_t validTotal() const;
  // The loss's divisor and sign: d loss / d GIoU of one valid box.
  double lossSlope() const;
};

// Valid boxes per sample, the same for every variant and run of a problem: drawn from `seed`.
std::vector<std::int32_t> drawCounts(std::int64_t batch, std::int64_t boxes,
                                     CountDistribution distribution, std::int64_t constant,
                                     std::uint64_t seed);

// Boxes in a 256 x 256 image as the write-up draws them: targets with integer corners (top-left
// in 0..254, sides 1..255, clamped to 255), zero after the valid ones; preds with fractional
// corners; zeroAreaPercent of both degenerate, x2 == x1.
HostArray drawTargets(const GiouProblem& problem, std::uint64_t seed);
HostArray drawPreds(const GiouProblem& problem, std::uint64_t seed);
HostArray countsArray(const GiouProblem& problem);

// The CPU reference in double precision, from the inputs as stored (preds, targets).
double referenceLoss(const GiouProblem& problem, const HostArray& preds, const HostArray& targets);
// d loss / d preds, elements [begin, begin + out.size()) of the [B, M, 4] gradient.
void referenceGradient(const GiouProblem& problem, const HostArray& preds, const HostArray& targets,
                       std::size_t begin, std::span<double> out);

}  // namespace kwb::giou
