#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string_view>
#include <vector>

#include "core/tunespace.h"

namespace kwb {

enum class TuneStrategyKind { Exhaustive, Random, Annealing, Genetic, ModelBased };
std::string_view toString(TuneStrategyKind kind);  // "exhaustive", ..., "model"
std::optional<TuneStrategyKind> parseTuneStrategy(std::string_view text);
std::vector<TuneStrategyKind> allTuneStrategies();

// Proposes the points of a space to evaluate and learns from each one's score (lower is better;
// none where the point could not run). Every proposal is a valid point neither proposed nor told
// about before, so that several may be out at once (one per GPU); nothing once every valid point
// has been.
class TuneStrategy {
 public:
  TuneStrategy(const TuneSpace& space, std::uint64_t seed);
  virtual ~TuneStrategy() = default;
  TuneStrategy(const TuneStrategy&) = delete;
  TuneStrategy& operator=(const TuneStrategy&) = delete;

  std::optional<std::size_t> next();
  void tell(std::size_t index, std::optional<double> score);

 protected:
  // The strategy's own choice, which next() passes on when it is valid and new, and otherwise
  // answers at once (learn) and asks again, falling back to a random new point.
  virtual std::optional<std::size_t> propose() = 0;
  virtual void learn(std::size_t index, std::optional<double> score) = 0;
  // How many proposals next() asks for before it draws a random point instead.
  virtual std::size_t proposalTries() const { return 64; }

  const TuneSpace& space() const { return space_; }
  std::mt19937_64& rng() { return rng_; }
  bool seen(std::size_t index) const { return seen_[index]; }
  std::optional<double> scoreOf(std::size_t index) const;
  std::optional<std::size_t> randomUnseen();
  // A point one step from `from` along one random axis: the next value up or down its list.
  // (Jumps to any value of the axis made annealing slower on the recorded H100 sweeps.)
  std::size_t neighbour(std::size_t from);
  // A point taking each axis's value from a or b at random.
  std::size_t crossover(std::size_t a, std::size_t b);

 private:
  std::size_t take(std::size_t index);  // a proposal made: not proposed again

  const TuneSpace& space_;
  std::mt19937_64 rng_;
  std::vector<bool> seen_;      // proposed or told about
  std::vector<bool> told_;      // told about: its score is known
  std::vector<double> scores_;  // NaN: none
  std::size_t unseenValid_;
};

std::unique_ptr<TuneStrategy> makeTuneStrategy(TuneStrategyKind kind, const TuneSpace& space,
                                               std::uint64_t seed);

}  // namespace kwb
