// Simulated annealing over neighbouring points: a worse neighbour is taken with a probability
// that falls with how much worse it is (relative to the current score) and with the temperature,
// which cools with each evaluation; after a run of steps without a new best it starts again from
// the best.
#include <cmath>

#include "core/searchstrategies.h"

namespace kwb {
namespace {

constexpr double kStartTemperature = 0.05;  // a point 5 % worse is taken with probability 1/e
constexpr double kCooling = 0.95;
constexpr double kLowestTemperature = 1e-3;

class AnnealingSearch final : public TuneStrategy {
 public:
  AnnealingSearch(const TuneSpace& space, std::uint64_t seed)
      : TuneStrategy(space, seed), patience_(10 + 3 * space.axes().size()) {}

 protected:
  std::optional<std::size_t> propose() override {
    return current_ ? std::optional(neighbour(*current_)) : randomUnseen();
  }

  void learn(std::size_t index, std::optional<double> score) override {
    if (!score) return;
    if (!best_ || *score < bestScore_) {
      best_ = index;
      bestScore_ = *score;
      sinceBest_ = 0;
    } else if (++sinceBest_ > patience_) {
      current_ = best_;
      currentScore_ = bestScore_;
      temperature_ = kStartTemperature;
      sinceBest_ = 0;
      return;
    }
    const double worse = current_ ? (*score - currentScore_) / currentScore_ : -1;
    if (worse <= 0 ||
        std::uniform_real_distribution<double>(0, 1)(rng()) < std::exp(-worse / temperature_)) {
      current_ = index;
      currentScore_ = *score;
    }
    temperature_ = std::max(temperature_ * kCooling, kLowestTemperature);
  }

 private:
  std::size_t patience_;
  std::optional<std::size_t> current_;
  double currentScore_ = 0;
  std::optional<std::size_t> best_;
  double bestScore_ = 0;
  std::size_t sinceBest_ = 0;
  double temperature_ = kStartTemperature;
};

}  // namespace

std::unique_ptr<TuneStrategy> makeAnnealingSearch(const TuneSpace& space, std::uint64_t seed) {
  return std::make_unique<AnnealingSearch>(space, seed);
}

}  // namespace kwb
