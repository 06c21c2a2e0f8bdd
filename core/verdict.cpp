#include "core/verdict.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "core/enumnames.h"
#include "core/error.h"
#include "core/gpustate.h"

namespace kwb {
namespace {

double medianOf(std::vector<double>& values) {
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  if (values.size() % 2) return *middle;
  return (*middle + *std::max_element(values.begin(), middle)) / 2;
}

constexpr EnumNames<VerdictKind, 4> kVerdictNames{{{
    {VerdictKind::Faster, "FASTER"},
    {VerdictKind::Slower, "SLOWER"},
    {VerdictKind::Same, "SAME"},
    {VerdictKind::Unsure, "UNSURE"},
}}};

std::vector<std::string> timingCaveats(const RunResult& baseline, const RunResult& candidate) {
  std::vector<std::string> caveats;
  if (baseline.mode != candidate.mode)
    caveats.push_back("the baseline was timed " + std::string(toString(baseline.mode)) +
                      " and this run " + std::string(toString(candidate.mode)) +
                      ": the ratio includes the L2's help");
  else if (baseline.flush != candidate.flush)
    caveats.push_back(
        std::string(baseline.flush == L2Flush::Write ? "the baseline" : "this run") +
        " flushed L2 by writing alone (before schema 5): its cold times include the write-back "
        "of the flush's dirty lines");
  if ((baseline.eventOverhead > 0) != (candidate.eventOverhead > 0)) {
    const double kept = std::max(baseline.eventOverhead, candidate.eventOverhead);
    char text[160];
    std::snprintf(text, sizeof text,
                  "%s keeps the events' own time in its samples (%.1f us in the other run)",
                  baseline.eventOverhead > 0 ? "this run" : "the baseline", kept * 1e6);
    caveats.push_back(text);
  }
  return caveats;
}

}  // namespace

std::string_view toString(VerdictKind kind) {
  return kVerdictNames.name(kind);
}

Verdict compareSamples(std::span<const double> baseline, std::span<const double> candidate,
                       double band) {
  if (baseline.size() < 2 || candidate.size() < 2)
    throw Error(ErrorKind::Usage, "a comparison needs at least two samples of each run");
  std::vector<double> a(baseline.begin(), baseline.end());
  std::vector<double> b(candidate.begin(), candidate.end());
  Verdict v;
  v.ratio = medianOf(b) / medianOf(a);
  // Percentile bootstrap of the ratio of medians, each run resampled on its own.
  std::mt19937_64 random(20261124);
  std::uniform_int_distribution<std::size_t> pickA(0, a.size() - 1), pickB(0, b.size() - 1);
  std::vector<double> ratios(kBootstrapRounds), resampledA(a.size()), resampledB(b.size());
  for (double& ratio : ratios) {
    for (double& x : resampledA) x = a[pickA(random)];
    for (double& x : resampledB) x = b[pickB(random)];
    ratio = medianOf(resampledB) / medianOf(resampledA);
  }
  std::sort(ratios.begin(), ratios.end());
  v.low = ratios[static_cast<std::size_t>(0.025 * (kBootstrapRounds - 1))];
  v.high = ratios[static_cast<std::size_t>(0.975 * (kBootstrapRounds - 1))];
  if (v.low >= 1 - band && v.high <= 1 + band)
    v.kind = VerdictKind::Same;
  else if (v.high < 1)
    v.kind = VerdictKind::Faster;
  else if (v.low > 1)
    v.kind = VerdictKind::Slower;
  else
    v.kind = VerdictKind::Unsure;
  return v;
}

Interval medianInterval(std::span<const double> samples) {
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  if (n == 0) return {};
  if (n < 6) return {sorted.front(), sorted.back()};
  const double middle = static_cast<double>(n) / 2, half = 0.98 * std::sqrt(2 * middle);
  const auto low = static_cast<std::size_t>(std::max(0.0, std::floor(middle - half)));
  const auto high = std::min(n - 1, static_cast<std::size_t>(std::ceil(middle + half)));
  return {sorted[low], sorted[high]};
}

Interval rateInterval(double rate, double median, const Interval& time) {
  if (time.low <= 0) return {rate, rate};
  const double work = rate * median;
  return {work / time.high, work / time.low};
}

std::vector<bool> tiedWithBest(std::span<const double> values,
                               std::span<const Interval> intervals) {
  std::vector<bool> tied(values.size(), false);
  if (values.empty()) return tied;
  const auto best =
      static_cast<std::size_t>(std::max_element(values.begin(), values.end()) - values.begin());
  for (std::size_t i = 0; i < values.size(); ++i)
    tied[i] = i == best || intervals[i].overlaps(intervals[best]);
  return tied;
}

std::string describe(const Verdict& v) {
  char text[160];
  std::snprintf(text, sizeof text, "%.3fx the time (95 %% interval %.3f to %.3f): %s", v.ratio,
                v.low, v.high, std::string(toString(v.kind)).c_str());
  std::string out = text;
  if (v.explainedByClocks) {
    std::snprintf(text, sizeof text, "; the SM clock was %.3fx: the clocks explain it",
                  *v.clockRatio);
    out += text;
  }
  return out;
}

Verdict compareRuns(const RunResult& baseline, const RunResult& candidate, double band) {
  Verdict v = compareSamples(baseline.samples, candidate.samples, band);
  const auto before = smClockOf(baseline), after = smClockOf(candidate);
  if (before && after && *before > 0 && std::abs(*after / *before - 1) > band) {
    v.clockRatio = *after / *before;
    // A kernel bound by its SM clock takes time inversely to it.
    v.explainedByClocks =
        v.kind != VerdictKind::Same && std::abs(v.ratio * *v.clockRatio - 1) <= band;
  }
  v.caveats = timingCaveats(baseline, candidate);
  return v;
}

}  // namespace kwb
