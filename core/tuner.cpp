#include "core/tuner.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/error.h"

namespace kwb {
namespace {

constexpr std::pair<TuneObjective, std::string_view> kObjectives[] = {
    {TuneObjective::Time, "time"},
    {TuneObjective::Bandwidth, "bandwidth"},
    {TuneObjective::Energy, "energy"},
    {TuneObjective::TimeAndEnergy, "time,energy"},
};

// Lower is better for both; a scored evaluation has both where energy is needed.
bool dominates(const TuneMeasurement& a, const TuneMeasurement& b) {
  return a.median <= b.median && *a.energy <= *b.energy &&
         (a.median < b.median || *a.energy < *b.energy);
}

}  // namespace

std::string_view toString(TuneObjective objective) {
  for (const auto& [o, name] : kObjectives)
    if (o == objective) return name;
  return "?";
}

std::optional<TuneObjective> parseTuneObjective(std::string_view text) {
  for (const auto& [o, name] : kObjectives)
    if (name == text) return o;
  return std::nullopt;
}

bool needsEnergy(TuneObjective objective) {
  return objective == TuneObjective::Energy || objective == TuneObjective::TimeAndEnergy;
}

TuneMeasurement tuneMeasurementOf(const RunResult& run, std::optional<std::int64_t> runId,
                                  bool cached) {
  TuneMeasurement m;
  m.runId = runId;
  m.cached = cached;
  if (run.status != RunStatus::Ok) {
    m.outcome = TuneMeasurement::Outcome::Failed;
    m.error = run.error.empty() ? std::string(toString(run.status)) : run.error;
    return m;
  }
  m.median = run.stats.median;
  m.bandwidth = run.bandwidth;
  m.samples = run.samples;
  if (const Metric* power = run.metric("gpu.power")) m.energy = power->value * run.stats.median;
  return m;
}

std::optional<double> tuneScore(TuneObjective objective, const TuneMeasurement& m) {
  if (m.outcome != TuneMeasurement::Outcome::Ok || m.median <= 0) return std::nullopt;
  switch (objective) {
    case TuneObjective::Time: return m.median;
    case TuneObjective::Bandwidth:
      return m.bandwidth > 0 ? std::optional(1 / m.bandwidth) : std::nullopt;
    case TuneObjective::Energy: return m.energy;
    case TuneObjective::TimeAndEnergy:
      return m.energy ? std::optional(m.median * *m.energy) : std::nullopt;
  }
  return std::nullopt;
}

std::size_t TuneOutcome::cacheHits() const {
  return static_cast<std::size_t>(
      std::count_if(evaluations.begin(), evaluations.end(),
                    [](const TuneEvaluation& e) { return e.measurement.cached; }));
}

std::size_t TuneOutcome::failures() const {
  return static_cast<std::size_t>(
      std::count_if(evaluations.begin(), evaluations.end(), [](const TuneEvaluation& e) {
        return e.measurement.outcome != TuneMeasurement::Outcome::Ok;
      }));
}

Tuner::Tuner(const TuneSpace& space, TuneStrategy& strategy, TuneObjective objective,
             TuneLimits limits)
    : space_(space), strategy_(strategy), objective_(objective), limits_(limits) {}

TuneOutcome Tuner::run(const Evaluate& evaluate, const std::atomic<bool>* cancel,
                       const Progress& progress) const {
  return run(
      [&](const std::vector<std::size_t>& indices) {
        return std::vector<TuneMeasurement>{evaluate(indices[0], *space_.params(indices[0]))};
      },
      1, cancel, progress);
}

TuneOutcome Tuner::run(const EvaluateBatch& evaluate, std::size_t width,
                       const std::atomic<bool>* cancel, const Progress& progress) const {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  TuneOutcome outcome;
  std::size_t sinceBest = 0;
  while (true) {
    if (limits_.evaluations && outcome.evaluations.size() >= limits_.evaluations) {
      outcome.stopped = "evaluation budget spent";
      break;
    }
    if (limits_.seconds > 0 && elapsed() >= limits_.seconds) {
      outcome.stopped = "time budget spent";
      break;
    }
    if (limits_.patience && sinceBest >= limits_.patience) {
      outcome.stopped = "no better point in " + std::to_string(limits_.patience) + " evaluations";
      break;
    }
    if (cancel && *cancel) {
      outcome.stopped = "stopped";
      break;
    }
    std::size_t room = std::max<std::size_t>(width, 1);
    if (limits_.evaluations)
      room = std::min(room, limits_.evaluations - outcome.evaluations.size());
    std::vector<std::size_t> batch;
    while (batch.size() < room) {
      const auto index = strategy_.next();
      if (!index) break;
      batch.push_back(*index);
    }
    if (batch.empty()) {
      outcome.stopped = "every valid point evaluated";
      break;
    }
    std::vector<TuneMeasurement> measured;
    try {
      measured = evaluate(batch);
    } catch (const Error& error) {
      if (error.kind() != ErrorKind::Cancelled) throw;
      outcome.stopped = "stopped";
      break;
    }
    for (std::size_t k = 0; k < batch.size(); ++k) {
      TuneEvaluation e;
      e.index = batch[k];
      e.measurement = std::move(measured.at(k));
      e.score = tuneScore(objective_, e.measurement);
      e.elapsed = elapsed();
      strategy_.tell(e.index, e.score);
      outcome.evaluations.push_back(std::move(e));
      const auto& added = outcome.evaluations.back();
      const bool better = added.score && (!outcome.best ||
                                          *added.score < *outcome.evaluations[*outcome.best].score);
      if (better) outcome.best = outcome.evaluations.size() - 1;
      sinceBest = better ? 0 : sinceBest + 1;
      if (progress) progress(outcome);
    }
  }
  return outcome;
}

std::vector<std::size_t> paretoFront(const std::vector<TuneEvaluation>& evaluations) {
  std::vector<std::size_t> front;
  for (std::size_t i = 0; i < evaluations.size(); ++i) {
    const auto& a = evaluations[i].measurement;
    if (a.outcome != TuneMeasurement::Outcome::Ok || !a.energy) continue;
    bool dominated = false;
    for (const auto& other : evaluations) {
      const auto& b = other.measurement;
      if (b.outcome == TuneMeasurement::Outcome::Ok && b.energy && dominates(b, a)) {
        dominated = true;
        break;
      }
    }
    if (!dominated) front.push_back(i);
  }
  std::sort(front.begin(), front.end(), [&](std::size_t x, std::size_t y) {
    return evaluations[x].measurement.median < evaluations[y].measurement.median;
  });
  return front;
}

std::vector<std::size_t> leaders(const TuneOutcome& outcome, std::size_t count) {
  std::vector<std::size_t> scored;
  for (std::size_t i = 0; i < outcome.evaluations.size(); ++i)
    if (outcome.evaluations[i].score) scored.push_back(i);
  std::stable_sort(scored.begin(), scored.end(), [&](std::size_t a, std::size_t b) {
    return *outcome.evaluations[a].score < *outcome.evaluations[b].score;
  });
  if (scored.size() > count) scored.resize(count);
  return scored;
}

std::vector<TuneFinalist> confirmLeaders(
    const TuneOutcome& outcome, TuneObjective objective, std::size_t count,
    const std::function<TuneMeasurement(std::size_t index)>& remeasure, double band) {
  std::vector<TuneFinalist> finalists;
  for (const std::size_t position : leaders(outcome, count)) {
    TuneFinalist f;
    f.index = outcome.evaluations[position].index;
    f.measurement = remeasure(f.index);
    if (tuneScore(objective, f.measurement)) finalists.push_back(std::move(f));
  }
  std::stable_sort(
      finalists.begin(), finalists.end(), [&](const TuneFinalist& a, const TuneFinalist& b) {
        return *tuneScore(objective, a.measurement) < *tuneScore(objective, b.measurement);
      });
  if (finalists.empty()) return finalists;
  finalists.front().tied = true;
  const TuneMeasurement& best = finalists.front().measurement;
  for (std::size_t i = 1; i < finalists.size(); ++i) {
    TuneFinalist& f = finalists[i];
    if (best.samples.size() >= 2 && f.measurement.samples.size() >= 2)
      f.againstBest = compareSamples(best.samples, f.measurement.samples, band);
    if (needsEnergy(objective))
      f.tied = *tuneScore(objective, f.measurement) <= *tuneScore(objective, best) * (1 + band);
    else
      f.tied = f.againstBest && f.againstBest->kind != VerdictKind::Slower;
  }
  return finalists;
}

}  // namespace kwb
