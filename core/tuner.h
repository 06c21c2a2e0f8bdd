#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/runresult.h"
#include "core/tunespace.h"
#include "core/tunestrategy.h"
#include "core/verdict.h"

namespace kwb {

// What a tuning minimizes: the median time, the time per byte (bandwidth), the energy of a call,
// or time and energy together (their product, with the Pareto front of the two reported).
enum class TuneObjective { Time, Bandwidth, Energy, TimeAndEnergy };
std::string_view toString(TuneObjective objective);  // "time", "bandwidth", "energy", "time,energy"
std::optional<TuneObjective> parseTuneObjective(std::string_view text);
bool needsEnergy(TuneObjective objective);

// One point's measurement, fresh or from the history.
struct TuneMeasurement {
  enum class Outcome { Ok, Failed, Rejected };  // Rejected: the device refused the parameters
  Outcome outcome = Outcome::Ok;
  std::string error;
  double median = 0;  // seconds
  double bandwidth = 0;
  std::optional<double> energy;  // joules per call, where the GPU reports power
  std::vector<double> samples;
  std::optional<std::int64_t> runId;
  bool cached = false;  // found in the history, not run
};

// A run as a tuning sees it; energy per call from the mean power while it was timed.
TuneMeasurement tuneMeasurementOf(const RunResult& run, std::optional<std::int64_t> runId,
                                  bool cached);

// The score a tuning minimizes; none for a point that did not run or lacks what it needs.
std::optional<double> tuneScore(TuneObjective objective, const TuneMeasurement& m);

struct TuneEvaluation {
  std::size_t index = 0;  // the point in the space
  TuneMeasurement measurement;
  std::optional<double> score;
  double elapsed = 0;  // seconds from the tuning's start when it finished
};

// When to stop besides the space running out: after this many evaluations, seconds, or
// evaluations without a better score (0: no such limit). Points found in the history count as
// evaluations, so that a tuning run again with the same seed ends where the first would have.
struct TuneLimits {
  std::size_t evaluations = 0;
  double seconds = 0;
  std::size_t patience = 0;
};

struct TuneOutcome {
  std::vector<TuneEvaluation> evaluations;  // in the order they finished
  std::optional<std::size_t> best;          // position in evaluations
  std::string stopped;                      // why the search ended, a phrase
  std::size_t cacheHits() const;
  std::size_t failures() const;  // failed or rejected by the device
};

class Tuner {
 public:
  // Measures one valid point; may throw Error(Cancelled).
  using Evaluate = std::function<TuneMeasurement(std::size_t index, const ParamSet& params)>;
  // Measures several valid points at once (one per GPU), a measurement each in their order; may
  // throw Error(Cancelled).
  using EvaluateBatch =
      std::function<std::vector<TuneMeasurement>(const std::vector<std::size_t>& indices)>;
  using Progress = std::function<void(const TuneOutcome& sofar)>;

  Tuner(const TuneSpace& space, TuneStrategy& strategy, TuneObjective objective, TuneLimits limits);
  // Asks the strategy for points and evaluates them until a limit, the end of the space or
  // *cancel; what was evaluated stays in the outcome however it ends.
  TuneOutcome run(const Evaluate& evaluate, const std::atomic<bool>* cancel,
                  const Progress& progress) const;
  // The same with up to `width` points out at once: the strategy proposes that many before it
  // hears of any of them, and learns of each batch as it ends.
  TuneOutcome run(const EvaluateBatch& evaluate, std::size_t width, const std::atomic<bool>* cancel,
                  const Progress& progress) const;

 private:
  const TuneSpace& space_;
  TuneStrategy& strategy_;
  TuneObjective objective_;
  TuneLimits limits_;
};

// The evaluations on the Pareto front of time and energy (none lower in both), by time.
std::vector<std::size_t> paretoFront(const std::vector<TuneEvaluation>& evaluations);

// The positions of the best `count` evaluations with a score, best first.
std::vector<std::size_t> leaders(const TuneOutcome& outcome, std::size_t count);

// A leader measured again, against the best of them.
struct TuneFinalist {
  std::size_t index = 0;  // the point in the space
  TuneMeasurement measurement;
  std::optional<Verdict> againstBest;  // from time samples; none for the best itself
  bool tied = false;                   // cannot be told from the best
};

// Measures the leaders again (remeasure: with more samples, or the stored ones where there is no
// GPU) and compares each one's samples with the best's: the finalists that are not SLOWER are
// tied with it. Ranked by the objective; the first is the best. Energy objectives rank by energy
// and call a finalist tied where its energy is within `band` of the best's.
std::vector<TuneFinalist> confirmLeaders(
    const TuneOutcome& outcome, TuneObjective objective, std::size_t count,
    const std::function<TuneMeasurement(std::size_t index)>& remeasure, double band = kSameBand);

}  // namespace kwb
