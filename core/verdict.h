#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/runresult.h"

namespace kwb {

enum class VerdictKind { Faster, Slower, Same, Unsure };
std::string_view toString(VerdictKind kind);  // "FASTER", ...

// How a run's time compares with a baseline's, from their raw samples: the ratio of medians
// (candidate over baseline: below 1 is faster) with a 95 % bootstrap interval. SAME where the whole
// interval lies within the equivalence band (±band), FASTER or SLOWER where it excludes 1, UNSURE
// otherwise. Where both runs read the SM clock and the clocks differ past the band, clockRatio
// says by how much (candidate over baseline), and explainedByClocks whether the time ratio is the
// inverse of it within the band: the clocks, not the code, made the difference.
struct Verdict {
  VerdictKind kind = VerdictKind::Unsure;
  double ratio = 0;
  double low = 0;
  double high = 0;
  std::optional<double> clockRatio;
  bool explainedByClocks = false;
  // Sentences on how the two runs were timed differently (hot against cold, an older flush, the
  // events' own time kept in one), which the ratio then includes.
  std::vector<std::string> caveats;
};

inline constexpr double kSameBand = 0.01;
inline constexpr std::size_t kBootstrapRounds = 2000;

// The samples' interval alone; seeded, so the same samples give the same verdict.
Verdict compareSamples(std::span<const double> baseline, std::span<const double> candidate,
                       double band = kSameBand);
// The 95 % interval of a run's median from its order statistics (distribution-free: the ranks
// n/2 -+ 0.98 sqrt(n), the binomial's normal approximation); the whole range below 6 samples.
struct Interval {
  double low = 0;
  double high = 0;
  bool overlaps(const Interval& other) const { return low <= other.high && other.low <= high; }
};
Interval medianInterval(std::span<const double> samples);

// The interval of a rate (bandwidth: bytes over the median time) from its time's interval; the
// rate alone where the time has none.
Interval rateInterval(double rate, double median, const Interval& time);

// Which values cannot be told from the best (the highest `value`): those whose interval overlaps
// the best one's. Charts mark them; where all are, the chart's whole range is noise.
std::vector<bool> tiedWithBest(std::span<const double> values, std::span<const Interval> intervals);

// "0.970x the time (95 % interval 0.961 to 0.979): FASTER", and what the clocks say.
std::string describe(const Verdict& verdict);

// Two runs: their samples, and their SM clocks where both read one. Throws Error(Usage) where a
// run has fewer than two samples.
Verdict compareRuns(const RunResult& baseline, const RunResult& candidate, double band = kSameBand);

}  // namespace kwb
