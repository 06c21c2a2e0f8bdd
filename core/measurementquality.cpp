#include "core/measurementquality.h"

#include <cmath>
#include <cstdio>

#include "core/format.h"
#include "core/gpustate.h"
#include "core/metricrollup.h"
#include "core/traffic.h"
#include "core/verdict.h"

namespace kwb {
namespace {

// Below this share of its maximum, the SM clock says the GPU was not running flat out.
constexpr double kSlowClock = 0.9;
// Event and traced times further apart than this for a call of one kernel: something besides
// the kernel sat between the events.
constexpr double kEventTracedGap = 0.05;
// A median whose 95 % interval is wider than this (each side) is too loose to compare on.
constexpr double kLooseMedian = 0.01;
// Fewer samples than this give a median that moves with a single outlier.
constexpr std::size_t kFewSamples = 10;

}  // namespace

MeasurementQuality assessQuality(const RunResult& run) {
  MeasurementQuality q;
  q.samples = run.samples.empty() ? run.stats.count : run.samples.size();
  q.spread = run.stats.relStddev();
  q.converged = run.converged;
  if (run.samples.size() >= 2 && run.stats.median > 0) {
    const Interval median = medianInterval(run.samples);
    q.medianUncertainty = (median.high - median.low) / 2 / run.stats.median;
  }
  q.throttled = run.throttledSamples.size();
  q.smClock = smClockOf(run);
  q.smClockMax = run.metricValue("gpu.sm_clock_max");
  q.backToBack = !run.derived.has("timed_back_to_back");
  const auto traced = run.metricValue(kActivityMedian);
  if (traced && *traced > 0 && run.stats.median > 0) q.eventOverTraced = run.stats.median / *traced;

  if (q.samples < kFewSamples)
    q.doubts.push_back("only " + std::to_string(q.samples) +
                       " samples: one outlier moves the median");
  if (q.throttled > 0)
    q.doubts.push_back(std::to_string(q.throttled) + " of " + std::to_string(q.samples) +
                       " samples were taken while the GPU held its clocks down (power or "
                       "thermal limits)");
  // Not converging is no doubt in itself: many samples pin the median down all the same.
  if (q.medianUncertainty > kLooseMedian && q.samples >= kFewSamples)
    q.doubts.push_back(
        formatted("the median is known to -+%.1f %% only (95 %%): more samples (a "
                  "longer budget) or a quieter GPU would pin it down",
                  q.medianUncertainty * 100));
  if (q.smClock && q.smClockMax && *q.smClock < kSlowClock * *q.smClockMax)
    q.doubts.push_back(formatted("the SM clock ran at %.0f MHz, %.0f %% of its %.0f MHz maximum",
                                 *q.smClock, 100 * *q.smClock / *q.smClockMax, *q.smClockMax));
  const bool oneKernel = run.metricValue("activity.kernels_per_call").value_or(1) <= 1;
  if (q.eventOverTraced && oneKernel && std::abs(*q.eventOverTraced - 1) > kEventTracedGap)
    q.doubts.push_back(
        formatted("the event median is %.2fx the traced kernel time: something "
                  "besides the kernel sat between the events",
                  *q.eventOverTraced));
  if (!q.backToBack)
    q.doubts.push_back("each call was timed on its own, the host's launch gaps inside the events");
  if (run.flush == L2Flush::Write)
    q.doubts.push_back(
        "timed with the older write-only L2 flush: cold times include the write-back of the "
        "flush's dirty lines");
  if (run.eventOverhead == 0 && q.samples > 0 && run.family != "imported")
    q.doubts.push_back("timed before the events' own time was subtracted: about 1.3 us high");
  return q;
}

std::vector<std::pair<std::string, std::string>> qualityRows(const RunResult& run,
                                                             const MeasurementQuality& q) {
  std::vector<std::pair<std::string, std::string>> rows;
  rows.emplace_back("samples", std::to_string(q.samples) +
                                   formatted(", spread %.2f %%, ", q.spread * 100) +
                                   (q.converged ? "converged" : "not converged"));
  if (q.medianUncertainty > 0)
    rows.emplace_back("median", formatted("-+%.2f %% (95 %% interval)", q.medianUncertainty * 100));
  rows.emplace_back("throttled samples", std::to_string(q.throttled));
  if (q.smClock)
    rows.emplace_back("SM clock", q.smClockMax
                                      ? formatted("%.0f of %.0f MHz", *q.smClock, *q.smClockMax)
                                      : formatted("%.0f MHz", *q.smClock));
  if (q.eventOverTraced) rows.emplace_back("event / traced", formatted("%.3f", *q.eventOverTraced));
  if (const auto traffic = checkTraffic(run))
    rows.emplace_back("DRAM traffic",
                      formatted("%.2fx the bytes the variant needs (", traffic->ratio) +
                          formatBytes(traffic->measured) + " of " + formatBytes(traffic->declared) +
                          ")");
  std::string timing = std::string(toString(run.mode));
  if (run.flush == L2Flush::WriteRead)
    timing += ", L2 written and read back before each sample";
  else if (run.flush == L2Flush::Write)
    timing += ", L2 written before each sample (older flush)";
  if (run.eventOverhead > 0)
    timing += formatted(", events' own %.2f us subtracted", run.eventOverhead * 1e6);
  rows.emplace_back("timing", timing);
  return rows;
}

}  // namespace kwb
