#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kwb {

// A value computed from two collected counters, the way Nsight Compute derives its ratios.
struct DerivedMetric {
  std::string name;  // Nsight Compute's name for the ratio
  std::string numerator;
  std::string denominator;
};

// A named group of hardware metrics a user picks with `--metrics SET`.
struct MetricSet {
  std::string name;
  std::string meaning;
  std::vector<std::string> counters;  // Nsight Compute names, read by the range profiler
  std::vector<DerivedMetric> derived;
  bool theoreticalOccupancy = false;  // computed with the occupancy API, not read from counters
};

// What one run's counter pass collects: the union of the sets and free names a user asked for.
struct MetricPlan {
  std::vector<std::string> counters;  // without duplicates, in the order asked
  std::vector<DerivedMetric> derived;
  bool theoreticalOccupancy = false;
  bool empty() const { return counters.empty() && !theoreticalOccupancy; }
};

// Every plan also reads the kernels' own duration: it weighs per-kernel ratios into a run's
// value, and it is the figure to hold against event timing.
inline constexpr std::string_view kDurationMetric = "gpu__time_duration.sum";
// Theoretical occupancy under the name Nsight Compute gives it.
inline constexpr std::string_view kTheoreticalOccupancy = "sm__maximum_warps_per_active_cycle_pct";

const std::vector<MetricSet>& metricSets();

// "memory,divergence" or "memory,dram__bytes_read.sum": set names and metric names (anything
// with "__"), comma separated; "all" is every set. Throws paramError("metrics") for other words.
MetricPlan planMetrics(std::string_view text);

// Other names a chip may give a metric, tried in order when it does not know the first.
std::vector<std::string> metricAliases(std::string_view name);

// The unit of a metric's value, from Nsight Compute's naming: "B", "%", "ns", "/s" or "".
std::string metricUnit(std::string_view name);

// Counters add up over a run's kernels; rates, ratios and percentages are weighed by duration.
bool isAdditive(std::string_view name);

}  // namespace kwb
