#include "core/tunestrategy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

namespace kwb {
namespace {

std::vector<ParamSpec> specs() {
  return {integerParam("x", ParamRole::Launch, 0, 100, "0", "", ""),
          integerParam("y", ParamRole::Launch, 0, 100, "0", "", ""),
          integerParam("z", ParamRole::Launch, 0, 100, "0", "", "")};
}

// 20 x 20 x 4 points, of which those with x + y > 30 break the restriction.
TuneSpace space() {
  return TuneSpace({},
                   {parseSweepAxis("x=0:19", specs()), parseSweepAxis("y=0:19", specs()),
                    parseSweepAxis("z=0:3", specs())},
                   {"x + y <= 30"},
                   [](const RawParams& raw) { return resolveParams(specs(), raw); });
}

using Function = std::function<double(double x, double y, double z)>;

// A bowl with its floor at (13, 5, 2).
double bowl(double x, double y, double z) {
  return 1 + 0.01 * ((x - 13) * (x - 13) + 2 * (y - 5) * (y - 5) + 4 * (z - 2) * (z - 2));
}

// Two basins: a wide one around (3, 3, 0) and a narrower, deeper one around (15, 12, 3).
double twoBasins(double x, double y, double z) {
  const double wide = 1.3 + 0.005 * ((x - 3) * (x - 3) + (y - 3) * (y - 3) + z * z);
  const double deep = 1 + 0.03 * ((x - 15) * (x - 15) + (y - 12) * (y - 12) + (z - 3) * (z - 3));
  return std::min(wide, deep);
}

double valueAt(const TuneSpace& s, const Function& f, std::size_t index) {
  const ParamSet p = *s.params(index);
  return f(static_cast<double>(p.getInt("x")), static_cast<double>(p.getInt("y")),
           static_cast<double>(p.getInt("z")));
}

// Evaluations until the strategy first scores within 2 % of the space's best (0: never, within
// the budget).
std::size_t evaluationsToNearBest(TuneStrategyKind kind, std::uint64_t seed, const Function& f,
                                  std::size_t budget) {
  const TuneSpace s = space();
  double best = 1e300;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (s.valid(i)) best = std::min(best, valueAt(s, f, i));
  auto strategy = makeTuneStrategy(kind, s, seed);
  for (std::size_t n = 1; n <= budget; ++n) {
    const auto index = strategy->next();
    if (!index) return 0;
    const double score = valueAt(s, f, *index);
    if (score <= best * 1.02) return n;
    strategy->tell(*index, score);
  }
  return 0;
}

std::size_t medianOverSeeds(TuneStrategyKind kind, const Function& f) {
  std::vector<std::size_t> counts;
  for (std::uint64_t seed = 1; seed <= 9; ++seed) {
    const std::size_t n = evaluationsToNearBest(kind, seed, f, 1600);
    counts.push_back(n ? n : 100000);
  }
  std::sort(counts.begin(), counts.end());
  return counts[counts.size() / 2];
}

TEST(TuneStrategy, NamesRoundTrip) {
  for (const auto kind : allTuneStrategies()) EXPECT_EQ(parseTuneStrategy(toString(kind)), kind);
  EXPECT_FALSE(parseTuneStrategy("bayes"));
}

TEST(TuneStrategy, EveryStrategyProposesEachValidPointOnceAndNoOther) {
  const TuneSpace s = space();
  for (const auto kind : allTuneStrategies()) {
    SCOPED_TRACE(toString(kind));
    auto strategy = makeTuneStrategy(kind, s, 7);
    std::set<std::size_t> proposed;
    while (const auto index = strategy->next()) {
      ASSERT_TRUE(s.valid(*index));
      const ParamSet p = *s.params(*index);
      ASSERT_LE(p.getInt("x") + p.getInt("y"), 30);
      ASSERT_TRUE(proposed.insert(*index).second) << "proposed twice: " << s.describe(*index);
      // Every fourth point fails to run: the strategy must go on all the same.
      strategy->tell(*index,
                     proposed.size() % 4 ? std::optional(valueAt(s, bowl, *index)) : std::nullopt);
    }
    EXPECT_EQ(proposed.size(), s.validCount());
  }
}

TEST(TuneStrategy, TheSameSeedProposesTheSamePoints) {
  const TuneSpace s = space();
  for (const auto kind : allTuneStrategies()) {
    SCOPED_TRACE(toString(kind));
    std::vector<std::size_t> first, second;
    for (auto* run : {&first, &second}) {
      auto strategy = makeTuneStrategy(kind, s, 42);
      for (int n = 0; n < 60; ++n) {
        const auto index = strategy->next();
        run->push_back(*index);
        strategy->tell(*index, valueAt(s, twoBasins, *index));
      }
    }
    EXPECT_EQ(first, second);
  }
}

TEST(TuneStrategy, TheLearningStrategiesBeatRandomOnABowl) {
  // 1360 valid points; random needs about a tenth of them to land near the floor.
  const std::size_t random = medianOverSeeds(TuneStrategyKind::Random, bowl);
  for (const auto kind :
       {TuneStrategyKind::Annealing, TuneStrategyKind::Genetic, TuneStrategyKind::ModelBased}) {
    SCOPED_TRACE(toString(kind));
    const std::size_t n = medianOverSeeds(kind, bowl);
    EXPECT_LT(n, random);
    EXPECT_LE(n, 136u);  // a tenth of the space
  }
}

TEST(TuneStrategy, TheLearningStrategiesFindTheDeeperOfTwoBasins) {
  for (const auto kind :
       {TuneStrategyKind::Annealing, TuneStrategyKind::Genetic, TuneStrategyKind::ModelBased}) {
    SCOPED_TRACE(toString(kind));
    EXPECT_LE(medianOverSeeds(kind, twoBasins), 400u);
  }
}

TEST(TuneStrategy, ExhaustiveWalksThePointsInOrder) {
  const TuneSpace s = space();
  auto strategy = makeTuneStrategy(TuneStrategyKind::Exhaustive, s, 1);
  std::size_t previous = 0;
  for (int n = 0; n < 100; ++n) {
    const auto index = strategy->next();
    if (n) {
      EXPECT_GT(*index, previous);
    }
    previous = *index;
    strategy->tell(*index, 1.0);
  }
}

}  // namespace
}  // namespace kwb
