#include "kernels/giou/giouproblem.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "kernels/giou/gioumath.h"

namespace kwb::giou {
namespace {

constexpr double kImage = 256;

bool valid(const GiouProblem& p, const HostArray& targets, std::int64_t box) {
  if (p.validity == Validity::Counts)
    return box % p.boxes < p.counts[static_cast<std::size_t>(box / p.boxes)];
  return targets.at(static_cast<std::size_t>(4 * box + 3)) > 0;
}

Box<double> boxAt(const HostArray& a, std::int64_t box) {
  const auto i = static_cast<std::size_t>(4 * box);
  return {a.at(i), a.at(i + 1), a.at(i + 2), a.at(i + 3)};
}

}  // namespace

std::int64_t GiouProblem::validTotal() const {
  std::int64_t n = 0;
  for (auto c : counts) n += c;
  return n;
}

double GiouProblem::lossSlope() const {
  const double divisor = static_cast<double>(std::max<std::int64_t>(validTotal(), 1));
  return (form == LossForm::SumGiou ? 1.0 : -1.0) / divisor;
}

std::vector<std::int32_t> drawCounts(std::int64_t batch, std::int64_t boxes,
                                     CountDistribution distribution, std::int64_t constant,
                                     std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 3.0);
  std::uniform_int_distribution<std::int64_t> uniform(0, boxes);
  std::vector<std::int32_t> counts(static_cast<std::size_t>(batch));
  for (auto& c : counts) {
    std::int64_t n = constant;
    if (distribution == CountDistribution::Normal)
      n = static_cast<std::int64_t>(std::floor(std::fabs(normal(rng))));
    else if (distribution == CountDistribution::Uniform)
      n = uniform(rng);
    c = static_cast<std::int32_t>(std::clamp<std::int64_t>(n, 0, boxes));
  }
  return counts;
}

HostArray drawTargets(const GiouProblem& p, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> corner(0, static_cast<int>(kImage) - 2);
  std::uniform_int_distribution<int> side(1, static_cast<int>(kImage) - 1);
  std::uniform_int_distribution<int> percent(0, 99);
  HostArray out(p.targetType, static_cast<std::size_t>(4 * p.total()));
  for (std::int64_t box = 0; box < p.total(); ++box) {
    const auto i = static_cast<std::size_t>(4 * box);
    const bool isValid = box % p.boxes < p.counts[static_cast<std::size_t>(box / p.boxes)];
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
    if (isValid) {
      x1 = corner(rng);
      y1 = corner(rng);
      x2 = std::min(x1 + side(rng), kImage - 1);
      y2 = std::min(y1 + side(rng), kImage - 1);  // at least 1: y2 > 0 marks it valid
      if (percent(rng) < p.zeroAreaPercent) x2 = x1;
    }
    out.set(i, x1);
    out.set(i + 1, y1);
    out.set(i + 2, x2);
    out.set(i + 3, y2);
  }
  return out;
}

HostArray drawPreds(const GiouProblem& p, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> corner(0, kImage - 64);
  std::uniform_real_distribution<double> side(1, 96);
  std::uniform_int_distribution<int> percent(0, 99);
  HostArray out(p.predType, static_cast<std::size_t>(4 * p.total()));
  for (std::int64_t box = 0; box < p.total(); ++box) {
    const auto i = static_cast<std::size_t>(4 * box);
    const double x1 = corner(rng), y1 = corner(rng);
    const double w = side(rng), h = side(rng);
    out.set(i, x1);
    out.set(i + 1, y1);
    out.set(i + 2, percent(rng) < p.zeroAreaPercent ? x1 : x1 + w);
    out.set(i + 3, y1 + h);
  }
  return out;
}

HostArray countsArray(const GiouProblem& p) {
  HostArray out(DType::I32, p.counts.size());
  for (std::size_t b = 0; b < p.counts.size(); ++b) out.set(b, p.counts[b]);
  return out;
}

double referenceLoss(const GiouProblem& p, const HostArray& preds, const HostArray& targets) {
  double sum = 0;
  std::int64_t count = 0;
  for (std::int64_t box = 0; box < p.total(); ++box) {
    if (!valid(p, targets, box)) continue;
    const double g = giouOf(boxAt(preds, box), boxAt(targets, box), p.epsilon);
    sum += p.form == LossForm::SumGiou ? g : 1.0 - g;
    ++count;
  }
  return sum / static_cast<double>(std::max<std::int64_t>(count, 1));
}

void referenceGradient(const GiouProblem& p, const HostArray& preds, const HostArray& targets,
                       std::size_t begin, std::span<double> out) {
  const double slope = p.lossSlope();
  std::size_t i = 0;
  while (i < out.size()) {
    const auto element = static_cast<std::int64_t>(begin + i);
    const std::int64_t box = element / 4;
    Box<double> grad{0, 0, 0, 0};
    if (valid(p, targets, box))
      giouWithGradient(boxAt(preds, box), boxAt(targets, box), p.epsilon, grad);
    const double g[4] = {grad.x1, grad.y1, grad.x2, grad.y2};
    for (std::int64_t c = element % 4; c < 4 && i < out.size(); ++c, ++i) out[i] = slope * g[c];
  }
}

}  // namespace kwb::giou
