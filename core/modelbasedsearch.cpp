// Model-based search for few evaluations: dlib's global optimizer (LIPO with a trust region: a
// Lipschitz upper bound of the scores so far picks where the best may still be, alternating with
// a local quadratic model around the best). Each axis is one integer variable, the position of
// its value, so geometric value lists are searched on a log scale. dlib maximizes: it is given
// -log(score). A point that cannot run is scored as twice the worst seen, so that the model
// learns to avoid its region. The model's cost grows with every score it holds, so after
// kModelled evaluations the search goes on around the best point found, one step at a time.
#include <dlib/global_optimization.h>

#include <algorithm>
#include <cmath>

#include "core/searchstrategies.h"

namespace kwb {
namespace {

constexpr std::size_t kModelled = 256;

class ModelBasedSearch final : public TuneStrategy {
 public:
  ModelBasedSearch(const TuneSpace& space, std::uint64_t seed) : TuneStrategy(space, seed) {
    const auto& axes = space.axes();
    for (std::size_t a = 0; a < axes.size(); ++a)
      if (axes[a].values.size() > 1) modelled_.push_back(a);
    if (modelled_.empty()) return;
    dlib::matrix<double, 0, 1> lower(static_cast<long>(modelled_.size()));
    dlib::matrix<double, 0, 1> upper(static_cast<long>(modelled_.size()));
    for (std::size_t d = 0; d < modelled_.size(); ++d) {
      lower(static_cast<long>(d)) = 0;
      upper(static_cast<long>(d)) = static_cast<double>(axes[modelled_[d]].values.size() - 1);
    }
    search_.emplace(dlib::function_spec(lower, upper, std::vector<bool>(modelled_.size(), true)));
    search_->set_seed(static_cast<time_t>(seed));
  }

 protected:
  std::optional<std::size_t> propose() override {
    if (!search_) return randomUnseen();
    if (answered_ >= kModelled) return best_ ? std::optional(neighbour(*best_)) : randomUnseen();
    dlib::function_evaluation_request request = search_->get_next_x();
    TunePoint p(space().axes().size(), 0);
    for (std::size_t d = 0; d < modelled_.size(); ++d) {
      const double x = std::round(request.x()(static_cast<long>(d)));
      const double top = static_cast<double>(space().axes()[modelled_[d]].values.size() - 1);
      p[modelled_[d]] = static_cast<std::size_t>(std::clamp(x, 0.0, top));
    }
    const std::size_t index = space().index(p);
    pending_.emplace_back(index, std::move(request));
    return index;
  }

  void learn(std::size_t index, std::optional<double> score) override {
    if (score && (!best_ || *score < bestScore_)) {
      best_ = index;
      bestScore_ = *score;
    }
    const auto it = std::find_if(pending_.begin(), pending_.end(),
                                 [&](const auto& p) { return p.first == index; });
    if (it == pending_.end()) return;  // a random point next() chose: the model never asked
    if (score) {
      const double value = -std::log(*score);
      worst_ = std::min(worst_.value_or(value), value);
      it->second.set(value);
    } else if (worst_) {
      it->second.set(*worst_ - std::log(2.0));
    }
    pending_.erase(it);
    ++answered_;
  }

  // Each proposal costs the model a search over every score so far: where it keeps proposing
  // points already evaluated, a random new one is cheaper.
  std::size_t proposalTries() const override { return 4; }

 private:
  std::vector<std::size_t> modelled_;  // the axes with more than one value
  std::optional<dlib::global_function_search> search_;
  std::vector<std::pair<std::size_t, dlib::function_evaluation_request>> pending_;
  std::optional<double> worst_;
  std::size_t answered_ = 0;
  std::optional<std::size_t> best_;
  double bestScore_ = 0;
};

}  // namespace

std::unique_ptr<TuneStrategy> makeModelBasedSearch(const TuneSpace& space, std::uint64_t seed) {
  return std::make_unique<ModelBasedSearch>(space, seed);
}

}  // namespace kwb
