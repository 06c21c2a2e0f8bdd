// The GIoU family's CPU side: the math against known values and finite differences, the drawn
// counts and boxes, the checks before a run and the fused launch auto picks.
#include "kernels/giou/giouproblem.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <utility>

#include "core/error.h"
#include "kernels/giou/gioumath.h"
#include "kernels/registry.h"
#include "tests/kernels/h100device.h"

namespace kwb::giou {
namespace {

TEST(GiouMath, KnownValues) {
  const Box<double> unit{0, 0, 1, 1};
  EXPECT_DOUBLE_EQ(giouOf(unit, unit, 1e-7), 1.0);
  // Half-overlapping: inter 0.5, union 1.5, enclosing 1.5.
  EXPECT_NEAR(giouOf(unit, Box<double>{0.5, 0, 1.5, 1}, 1e-7), 1.0 / 3.0, 1e-12);
  // Apart by one: inter 0, union 2, enclosing 3: 0 - (3 - 2) / 3.
  EXPECT_NEAR(giouOf(unit, Box<double>{2, 0, 3, 1}, 1e-7), -1.0 / 3.0, 1e-12);
  // Two boxes of no area: the union floors at epsilon, the iou is 0.
  EXPECT_NEAR(giouOf(Box<double>{0, 0, 0, 1}, Box<double>{2, 0, 2, 1}, 1e-7), -1.0, 1e-6);
}

TEST(GiouMath, GradientMatchesFiniteDifferences) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> corner(0, 50), side(1, 30);
  int checked = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const double ax = corner(rng), ay = corner(rng), bx = corner(rng), by = corner(rng);
    const Box<double> a{ax, ay, ax + side(rng), ay + side(rng)};
    const Box<double> b{bx, by, bx + side(rng), by + side(rng)};
    Box<double> grad{};
    const double g = giouWithGradient(a, b, 1e-7, grad);
    EXPECT_DOUBLE_EQ(g, giouOf(a, b, 1e-7));
    const double analytic[4] = {grad.x1, grad.y1, grad.x2, grad.y2};
    for (int c = 0; c < 4; ++c) {
      const double h = 1e-6;
      Box<double> up = a, down = a;
      (&up.x1)[c] += h;
      (&down.x1)[c] -= h;
      const double numeric = (giouOf(up, b, 1e-7) - giouOf(down, b, 1e-7)) / (2 * h);
      EXPECT_NEAR(analytic[c], numeric, 1e-6 + 1e-5 * std::fabs(numeric))
          << "trial " << trial << " coordinate " << c;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2000);
}

TEST(GiouProblem, CountsFollowTheirDistribution) {
  const auto normal = drawCounts(100000, 256, CountDistribution::Normal, 0, 1);
  double mean = 0;
  int zeros = 0;
  for (auto c : normal) {
    mean += c;
    zeros += c == 0;
  }
  mean /= static_cast<double>(normal.size());
  // E floor(|N(0, 3)|) = 1.90; P(|x| < 1) = 0.261.
  EXPECT_NEAR(mean, 1.90, 0.05);
  EXPECT_NEAR(zeros / 100000.0, 0.261, 0.01);
  for (auto c : drawCounts(1000, 7, CountDistribution::Normal, 0, 2)) EXPECT_LE(c, 7);
  for (auto c : drawCounts(10, 64, CountDistribution::Constant, 64, 1)) EXPECT_EQ(c, 64);
  EXPECT_EQ(drawCounts(50, 9, CountDistribution::Uniform, 0, 4),
            drawCounts(50, 9, CountDistribution::Uniform, 0, 4));
}

GiouProblem smallProblem(DType preds, DType targets) {
  GiouProblem p;
  p.batch = 6;
  p.boxes = 5;
  p.predType = preds;
  p.targetType = targets;
  p.counts = {0, 5, 2, 1, 0, 3};
  return p;
}

TEST(GiouProblem, TargetsAreValidExactlyBeforeEachCount) {
  for (DType t : {DType::U8, DType::F32}) {
    const GiouProblem p = smallProblem(DType::F32, t);
    const HostArray targets = drawTargets(p, 7);
    for (std::int64_t box = 0; box < p.total(); ++box) {
      const bool valid = box % p.boxes < p.counts[static_cast<std::size_t>(box / p.boxes)];
      const auto i = static_cast<std::size_t>(4 * box);
      EXPECT_EQ(targets.at(i + 3) > 0, valid) << box;
      if (valid) {
        EXPECT_LE(targets.at(i), targets.at(i + 2));
        EXPECT_LT(targets.at(i + 1), targets.at(i + 3));
        EXPECT_LE(targets.at(i + 3), 255);
      }
    }
  }
}

TEST(GiouProblem, LossAndGradientOfBothForms) {
  GiouProblem p = smallProblem(DType::F16, DType::U8);
  const HostArray preds = drawPreds(p, 1);
  const HostArray targets = drawTargets(p, 2);
  double sum = 0;
  for (std::int64_t box = 0; box < p.total(); ++box) {
    const auto i = static_cast<std::size_t>(4 * box);
    if (targets.at(i + 3) <= 0) continue;
    sum +=
        giouOf(Box<double>{preds.at(i), preds.at(i + 1), preds.at(i + 2), preds.at(i + 3)},
               Box<double>{targets.at(i), targets.at(i + 1), targets.at(i + 2), targets.at(i + 3)},
               p.epsilon);
  }
  EXPECT_NEAR(referenceLoss(p, preds, targets), sum / 11, 1e-12);
  std::vector<double> sumGrad(static_cast<std::size_t>(4 * p.total()));
  referenceGradient(p, preds, targets, 0, sumGrad);
  p.form = LossForm::MeanOneMinusGiou;
  EXPECT_NEAR(referenceLoss(p, preds, targets), 1 - sum / 11, 1e-12);
  // One range at an odd start, as the verifier's threads ask for it.
  std::vector<double> part(13);
  referenceGradient(p, preds, targets, 7, part);
  for (std::size_t i = 0; i < part.size(); ++i) EXPECT_DOUBLE_EQ(part[i], -sumGrad[7 + i]);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(sumGrad[i], 0.0);  // sample 0 has no valid box
}

TEST(GiouProblem, NoValidBoxGivesZeroLossAndGradient) {
  GiouProblem p = smallProblem(DType::F32, DType::F32);
  p.counts = {0, 0, 0, 0, 0, 0};
  const HostArray preds = drawPreds(p, 1);
  const HostArray targets = drawTargets(p, 2);
  EXPECT_EQ(referenceLoss(p, preds, targets), 0.0);
  std::vector<double> grad(static_cast<std::size_t>(4 * p.total()), 1.0);
  referenceGradient(p, preds, targets, 0, grad);
  for (double g : grad) EXPECT_EQ(g, 0.0);
}

std::string rejected(const std::string& variant, const RawParams& params) {
  try {
    Registry::instance().resolve("giou", variant, params);
  } catch (const Error& e) {
    return e.param();
  }
  return "accepted";
}

TEST(GiouFamily, ChecksBeforeRunning) {
  for (const auto& v : Registry::instance().family("giou").variants)
    EXPECT_EQ(rejected(v.name, {}), "accepted") << v.name;
  EXPECT_EQ(rejected("fused", {{"valid", "constant"}, {"valid_count", "300"}}), "valid_count");
  EXPECT_EQ(rejected("fused", {{"valid", "constant"}, {"valid_count", "256"}}), "accepted");
  EXPECT_EQ(rejected("fused", {{"batch", "1048576"}, {"boxes", "65536"}}), "batch");
  EXPECT_EQ(rejected("fused", {{"graph", "on"}}), "graph");  // fused kinds launch once anyway
  EXPECT_EQ(rejected("padded", {{"boxes_per_thread", "2"}}), "boxes_per_thread");
  EXPECT_EQ(rejected("padded", {{"dtype", "f64"}}), "dtype");
}

// The plain kernel's launch by default: a whole number of blocks of 256 an SM (132 SMs), as few
// as hold the batch in 16 boxes a thread; boxes_per_thread is then the most a thread takes.
std::pair<std::string, std::string> fusedLaunch(const std::string& variant,
                                                const RawParams& params) {
  const Variant& v = Registry::instance().find("giou", variant);
  const ParamSet derived =
      v.create(Registry::instance().resolve("giou", variant, params), h100())->derived();
  return {derived.get("grid"),
          derived.has("boxes_per_thread") ? derived.get("boxes_per_thread") : ""};
}

using Launch = std::pair<std::string, std::string>;

TEST(GiouFamily, AutoGivesThePlainKernelTheSameShareOnEverySm) {
  EXPECT_EQ(fusedLaunch("fused", {{"batch", "1"}, {"boxes", "16"}}), Launch("1", "1"));
  EXPECT_EQ(fusedLaunch("fused", {{"batch", "256"}}), Launch("132", "2"));  // 65536 boxes
  EXPECT_EQ(fusedLaunch("fused", {{"batch", "264"}}), Launch("132", "2"));  // 67584: 2 each
  EXPECT_EQ(fusedLaunch("fused", {{"batch", "265"}}), Launch("132", "3"));
  EXPECT_EQ(fusedLaunch("fused", {}), Launch("132", "8"));  // B = 1024
  EXPECT_EQ(fusedLaunch("fused", {{"batch", "1024"}, {"block_size", "512"}}), Launch("132", "4"));
  // 2^20 boxes: one block an SM would take 31 a thread, two take 16 at most (15.5 on average).
  EXPECT_EQ(fusedLaunch("fused", {{"batch", "4096"}}), Launch("264", "16"));
  EXPECT_EQ(fusedLaunch("fused", {{"batch", "4096"}, {"boxes_per_thread", "5"}}),
            Launch("820", "5"));
  EXPECT_EQ(rejected("fused_conditional", {{"boxes_per_thread", "auto"}}), "boxes_per_thread");
  EXPECT_EQ(fusedLaunch("fused_conditional", {{"batch", "4096"}}), Launch("1024", "4"));
}

}  // namespace
}  // namespace kwb::giou
