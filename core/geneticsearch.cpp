// A steady-state genetic algorithm: the best points evaluated so far are the population; each
// new point is a crossover of two parents picked by tournament, mutated by a step along one axis.
// The first population is drawn at random.
#include <algorithm>

#include "core/searchstrategies.h"

namespace kwb {
namespace {

constexpr std::size_t kPopulation = 16;
constexpr std::size_t kTournament = 3;
constexpr double kMutation = 0.5;

class GeneticSearch final : public TuneStrategy {
 public:
  using TuneStrategy::TuneStrategy;

 protected:
  std::optional<std::size_t> propose() override {
    if (population_.size() < kPopulation) return randomUnseen();
    const std::size_t a = parent();
    const std::size_t b = parent();
    std::size_t child = crossover(a, b);
    if (child == a || child == b || std::bernoulli_distribution(kMutation)(rng()))
      child = neighbour(child);
    return child;
  }

  void learn(std::size_t index, std::optional<double> score) override {
    if (!score) return;
    for (const auto& member : population_)
      if (member.index == index) return;
    population_.push_back({index, *score});
    std::sort(population_.begin(), population_.end(),
              [](const Member& x, const Member& y) { return x.score < y.score; });
    if (population_.size() > kPopulation) population_.pop_back();
  }

 private:
  struct Member {
    std::size_t index;
    double score;
  };

  // The best of a few members drawn at random; population_ is sorted, so the lowest position.
  std::size_t parent() {
    std::uniform_int_distribution<std::size_t> any(0, population_.size() - 1);
    std::size_t pick = any(rng());
    for (std::size_t t = 1; t < kTournament; ++t) pick = std::min(pick, any(rng()));
    return population_[pick].index;
  }

  std::vector<Member> population_;
};

}  // namespace

std::unique_ptr<TuneStrategy> makeGeneticSearch(const TuneSpace& space, std::uint64_t seed) {
  return std::make_unique<GeneticSearch>(space, seed);
}

}  // namespace kwb
