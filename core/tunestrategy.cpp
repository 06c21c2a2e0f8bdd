#include "core/tunestrategy.h"

#include <cmath>
#include <limits>

#include "core/error.h"
#include "core/searchstrategies.h"

namespace kwb {
namespace {

constexpr std::size_t kRandomDraws = 64;

constexpr std::pair<TuneStrategyKind, std::string_view> kNames[] = {
    {TuneStrategyKind::Exhaustive, "exhaustive"}, {TuneStrategyKind::Random, "random"},
    {TuneStrategyKind::Annealing, "annealing"},   {TuneStrategyKind::Genetic, "genetic"},
    {TuneStrategyKind::ModelBased, "model"},
};

// Every valid point in order.
class ExhaustiveSearch final : public TuneStrategy {
 public:
  using TuneStrategy::TuneStrategy;

 protected:
  std::optional<std::size_t> propose() override {
    while (next_ < space().size() && (!space().valid(next_) || seen(next_))) ++next_;
    if (next_ == space().size()) return std::nullopt;
    return next_++;
  }
  void learn(std::size_t, std::optional<double>) override {}

 private:
  std::size_t next_ = 0;
};

// Valid points drawn uniformly, none twice.
class RandomSearch final : public TuneStrategy {
 public:
  using TuneStrategy::TuneStrategy;

 protected:
  std::optional<std::size_t> propose() override { return randomUnseen(); }
  void learn(std::size_t, std::optional<double>) override {}
};

}  // namespace

std::string_view toString(TuneStrategyKind kind) {
  for (const auto& [k, name] : kNames)
    if (k == kind) return name;
  return "?";
}

std::optional<TuneStrategyKind> parseTuneStrategy(std::string_view text) {
  for (const auto& [k, name] : kNames)
    if (name == text) return k;
  return std::nullopt;
}

std::vector<TuneStrategyKind> allTuneStrategies() {
  std::vector<TuneStrategyKind> kinds;
  for (const auto& [k, name] : kNames) kinds.push_back(k);
  return kinds;
}

TuneStrategy::TuneStrategy(const TuneSpace& space, std::uint64_t seed)
    : space_(space),
      rng_(seed),
      seen_(space.size(), false),
      told_(space.size(), false),
      scores_(space.size(), std::numeric_limits<double>::quiet_NaN()),
      unseenValid_(space.validCount()) {}

std::optional<std::size_t> TuneStrategy::next() {
  if (unseenValid_ == 0) return std::nullopt;
  for (std::size_t t = 0; t < proposalTries(); ++t) {
    const auto p = propose();
    if (!p) break;
    if (!space_.valid(*p))
      learn(*p, std::nullopt);
    else if (told_[*p])
      learn(*p, scoreOf(*p));
    else if (!seen_[*p])
      return take(*p);
  }
  const auto any = randomUnseen();
  return any ? std::optional(take(*any)) : std::nullopt;
}

std::size_t TuneStrategy::take(std::size_t index) {
  seen_[index] = true;
  --unseenValid_;
  return index;
}

void TuneStrategy::tell(std::size_t index, std::optional<double> score) {
  if (!seen_[index] && space_.valid(index)) --unseenValid_;
  seen_[index] = true;
  told_[index] = true;
  if (score) scores_[index] = *score;
  learn(index, score);
}

std::optional<double> TuneStrategy::scoreOf(std::size_t index) const {
  if (std::isnan(scores_[index])) return std::nullopt;
  return scores_[index];
}

std::optional<std::size_t> TuneStrategy::randomUnseen() {
  if (unseenValid_ == 0) return std::nullopt;
  std::uniform_int_distribution<std::size_t> any(0, space_.size() - 1);
  for (std::size_t d = 0; d < kRandomDraws; ++d) {
    const std::size_t i = any(rng_);
    if (space_.valid(i) && !seen_[i]) return i;
  }
  // Few new points left: walk from a random start to the first.
  const std::size_t start = any(rng_);
  for (std::size_t k = 0; k < space_.size(); ++k) {
    const std::size_t i = (start + k) % space_.size();
    if (space_.valid(i) && !seen_[i]) return i;
  }
  return std::nullopt;
}

std::size_t TuneStrategy::neighbour(std::size_t from) {
  TunePoint p = space_.point(from);
  const auto& axes = space_.axes();
  std::uniform_int_distribution<std::size_t> pickAxis(0, axes.size() - 1);
  const std::size_t a = pickAxis(rng_);
  const std::size_t count = axes[a].values.size();
  if (count == 1) return from;
  const bool up = p[a] == 0 || (p[a] + 1 < count && std::bernoulli_distribution(0.5)(rng_));
  p[a] = up ? p[a] + 1 : p[a] - 1;
  return space_.index(p);
}

std::size_t TuneStrategy::crossover(std::size_t a, std::size_t b) {
  TunePoint pa = space_.point(a);
  const TunePoint pb = space_.point(b);
  for (std::size_t i = 0; i < pa.size(); ++i)
    if (std::bernoulli_distribution(0.5)(rng_)) pa[i] = pb[i];
  return space_.index(pa);
}

std::unique_ptr<TuneStrategy> makeTuneStrategy(TuneStrategyKind kind, const TuneSpace& space,
                                               std::uint64_t seed) {
  switch (kind) {
    case TuneStrategyKind::Exhaustive: return std::make_unique<ExhaustiveSearch>(space, seed);
    case TuneStrategyKind::Random: return std::make_unique<RandomSearch>(space, seed);
    case TuneStrategyKind::Annealing: return makeAnnealingSearch(space, seed);
    case TuneStrategyKind::Genetic: return makeGeneticSearch(space, seed);
    case TuneStrategyKind::ModelBased: return makeModelBasedSearch(space, seed);
  }
  throw Error(ErrorKind::Internal, "unknown tuning strategy");
}

}  // namespace kwb
