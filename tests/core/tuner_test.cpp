#include "core/tuner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "core/error.h"

namespace kwb {
namespace {

std::vector<ParamSpec> specs() {
  return {integerParam("x", ParamRole::Launch, 0, 100, "0", "", ""),
          integerParam("y", ParamRole::Launch, 0, 100, "0", "", "")};
}

TuneSpace space() {
  return TuneSpace({}, {parseSweepAxis("x=0:9", specs()), parseSweepAxis("y=0:9", specs())}, {},
                   [](const RawParams& raw) { return resolveParams(specs(), raw); });
}

// 20 samples around a median of `median` seconds, spread by 0.1 %.
std::vector<double> samplesAround(double median) {
  std::vector<double> s;
  for (int i = -10; i < 10; ++i) s.push_back(median * (1 + 0.0001 * i));
  return s;
}

TuneMeasurement measured(double median, std::optional<double> energy = {}) {
  TuneMeasurement m;
  m.median = median;
  m.bandwidth = 1e9 / median;
  m.energy = energy;
  m.samples = samplesAround(median);
  return m;
}

// Time grows with the distance from (7, 2); x = 9 fails on the device.
TuneMeasurement evaluate(std::size_t, const ParamSet& p) {
  if (p.getInt("x") == 9) {
    TuneMeasurement m;
    m.outcome = TuneMeasurement::Outcome::Rejected;
    m.error = "x = 9 does not fit";
    return m;
  }
  const double dx = static_cast<double>(p.getInt("x") - 7);
  const double dy = static_cast<double>(p.getInt("y") - 2);
  return measured(1e-5 * (1 + 0.01 * (dx * dx + dy * dy)));
}

// One point per GPU out at once: for every strategy no point twice, batches no wider than the
// GPUs and the budget kept to the point; the exhaustive search still finds the best.
TEST(Tuner, PointsGoOutInBatchesOneAGpu) {
  const TuneSpace s = space();
  for (const TuneStrategyKind kind : allTuneStrategies()) {
    auto strategy = makeTuneStrategy(kind, s, 3);
    std::vector<std::size_t> widths;
    const auto batch = [&](const std::vector<std::size_t>& indices) {
      widths.push_back(indices.size());
      std::vector<TuneMeasurement> out;
      for (const std::size_t i : indices) out.push_back(evaluate(i, *s.params(i)));
      return out;
    };
    const TuneOutcome out =
        Tuner(s, *strategy, TuneObjective::Time, {.evaluations = 42}).run(batch, 4, nullptr, {});
    ASSERT_EQ(out.evaluations.size(), 42u) << toString(kind);
    std::set<std::size_t> points;
    for (const auto& e : out.evaluations) points.insert(e.index);
    EXPECT_EQ(points.size(), 42u) << toString(kind);
    EXPECT_EQ(widths.front(), 4u);
    EXPECT_EQ(widths.back(), 2u) << toString(kind);  // 10 batches of 4, then the 2 left
    EXPECT_EQ(*std::max_element(widths.begin(), widths.end()), 4u);
  }
  auto exhaustive = makeTuneStrategy(TuneStrategyKind::Exhaustive, s, 1);
  const TuneOutcome all = Tuner(s, *exhaustive, TuneObjective::Time, {})
                              .run(
                                  [&](const std::vector<std::size_t>& indices) {
                                    std::vector<TuneMeasurement> out;
                                    for (const std::size_t i : indices)
                                      out.push_back(evaluate(i, *s.params(i)));
                                    return out;
                                  },
                                  3, nullptr, {});
  EXPECT_EQ(all.evaluations.size(), 100u);
  EXPECT_EQ(s.describe(all.evaluations[*all.best].index), "x=7 y=2");
}

TEST(Tuner, ExhaustiveFindsTheBestAndCountsFailures) {
  const TuneSpace s = space();
  auto strategy = makeTuneStrategy(TuneStrategyKind::Exhaustive, s, 1);
  const TuneOutcome out = Tuner(s, *strategy, TuneObjective::Time, {}).run(evaluate, nullptr, {});
  EXPECT_EQ(out.evaluations.size(), 100u);
  EXPECT_EQ(out.failures(), 10u);
  EXPECT_EQ(out.stopped, "every valid point evaluated");
  ASSERT_TRUE(out.best);
  EXPECT_EQ(s.describe(out.evaluations[*out.best].index), "x=7 y=2");
  EXPECT_FALSE(out.evaluations[s.index({9, 0})].score);  // failed points have no score
}

TEST(Tuner, StopsAtEachLimit) {
  const TuneSpace s = space();
  auto a = makeTuneStrategy(TuneStrategyKind::Random, s, 1);
  const TuneOutcome byCount =
      Tuner(s, *a, TuneObjective::Time, {.evaluations = 17}).run(evaluate, nullptr, {});
  EXPECT_EQ(byCount.evaluations.size(), 17u);
  EXPECT_EQ(byCount.stopped, "evaluation budget spent");

  auto b = makeTuneStrategy(TuneStrategyKind::Exhaustive, s, 1);
  const TuneOutcome byPatience =
      Tuner(s, *b, TuneObjective::Time, {.patience = 5})
          .run([](std::size_t, const ParamSet&) { return measured(1e-5); }, nullptr, {});
  EXPECT_EQ(byPatience.evaluations.size(), 6u);  // the first, then five no better
  EXPECT_EQ(byPatience.stopped, "no better point in 5 evaluations");

  std::atomic<bool> cancel{false};
  auto c = makeTuneStrategy(TuneStrategyKind::Exhaustive, s, 1);
  std::size_t seen = 0;
  const TuneOutcome stopped =
      Tuner(s, *c, TuneObjective::Time, {}).run(evaluate, &cancel, [&](const TuneOutcome& sofar) {
        seen = sofar.evaluations.size();
        if (seen == 3) cancel = true;
      });
  EXPECT_EQ(stopped.evaluations.size(), 3u);
  EXPECT_EQ(stopped.stopped, "stopped");

  auto d = makeTuneStrategy(TuneStrategyKind::Exhaustive, s, 1);
  const TuneOutcome cancelledInside = Tuner(s, *d, TuneObjective::Time, {})
                                          .run(
                                              [&](std::size_t i, const ParamSet& p) {
                                                if (i == 4)
                                                  throw Error(ErrorKind::Cancelled, "stopped");
                                                return evaluate(i, p);
                                              },
                                              nullptr, {});
  EXPECT_EQ(cancelledInside.evaluations.size(), 4u);  // what finished stays
}

TEST(Tuner, CountsCacheHitsAsEvaluations) {
  const TuneSpace s = space();
  auto strategy = makeTuneStrategy(TuneStrategyKind::Exhaustive, s, 1);
  const TuneOutcome out = Tuner(s, *strategy, TuneObjective::Time, {.evaluations = 10})
                              .run(
                                  [](std::size_t i, const ParamSet& p) {
                                    TuneMeasurement m = evaluate(i, p);
                                    m.cached = i % 2 == 0;
                                    return m;
                                  },
                                  nullptr, {});
  EXPECT_EQ(out.evaluations.size(), 10u);
  EXPECT_EQ(out.cacheHits(), 5u);
}

TEST(Tuner, ScoresEachObjective) {
  const TuneMeasurement m = measured(2e-5, 0.5);
  EXPECT_DOUBLE_EQ(*tuneScore(TuneObjective::Time, m), 2e-5);
  EXPECT_DOUBLE_EQ(*tuneScore(TuneObjective::Bandwidth, m), 2e-5 / 1e9);
  EXPECT_DOUBLE_EQ(*tuneScore(TuneObjective::Energy, m), 0.5);
  EXPECT_DOUBLE_EQ(*tuneScore(TuneObjective::TimeAndEnergy, m), 1e-5);
  EXPECT_FALSE(tuneScore(TuneObjective::Energy, measured(2e-5)));  // no power readings
  for (const auto o : {TuneObjective::Time, TuneObjective::Bandwidth, TuneObjective::Energy,
                       TuneObjective::TimeAndEnergy})
    EXPECT_EQ(parseTuneObjective(toString(o)), o);
}

TEST(Tuner, TheParetoFrontHoldsThePointsNoneBeatsInBoth) {
  std::vector<TuneEvaluation> e(5);
  e[0].measurement = measured(1.0, 5.0);
  e[1].measurement = measured(2.0, 2.0);
  e[2].measurement = measured(3.0, 1.0);
  e[3].measurement = measured(2.5, 2.5);  // beaten by e[1] in both
  e[4].measurement = measured(1.5);       // no energy: not on the front
  EXPECT_EQ(paretoFront(e), (std::vector<std::size_t>{0, 1, 2}));
}

TEST(Tuner, LeadersMeasuredAgainAreTiedUnlessSlower) {
  const TuneSpace s = space();
  auto strategy = makeTuneStrategy(TuneStrategyKind::Exhaustive, s, 1);
  const TuneOutcome out = Tuner(s, *strategy, TuneObjective::Time, {}).run(evaluate, nullptr, {});
  // Measured again: (7, 2) and (7, 3) a hair apart, (6, 2) 0.3 % slower, the rest 5 % slower.
  const auto remeasure = [&](std::size_t index) {
    const std::string d = s.describe(index);
    if (d == "x=7 y=2") return measured(1.0e-5);
    if (d == "x=7 y=3") return measured(1.00005e-5);
    if (d == "x=6 y=2") return measured(1.003e-5);
    return measured(1.05e-5);
  };
  const auto finalists = confirmLeaders(out, TuneObjective::Time, 5, remeasure);
  ASSERT_EQ(finalists.size(), 5u);
  EXPECT_EQ(s.describe(finalists[0].index), "x=7 y=2");
  EXPECT_TRUE(finalists[0].tied);
  EXPECT_FALSE(finalists[0].againstBest);
  std::size_t tied = 0;
  for (const auto& f : finalists) {
    tied += f.tied;
    if (f.againstBest && f.measurement.median > 1.04e-5) {
      EXPECT_EQ(f.againstBest->kind, VerdictKind::Slower);
    }
  }
  EXPECT_EQ(tied, 3u);
}

}  // namespace
}  // namespace kwb
