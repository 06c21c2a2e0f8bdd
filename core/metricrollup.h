#pragma once

#include <string>
#include <vector>

#include "core/metriccatalog.h"
#include "core/runresult.h"

namespace kwb {

// One kernel's readings from the counter pass, aligned with MetricPlan::counters.
struct KernelCounters {
  std::string kernel;
  std::vector<double> values;
  double theoreticalOccupancy = -1;  // percent; negative when not computed
};

// Each kernel's metrics (kernel set, "#2" added to a name seen twice) and the run's: counters
// summed over kernels, rates and percentages weighed by each kernel's duration, ratios formed
// from the summed numerator and denominator.
std::vector<Metric> rollUpCounters(const MetricPlan& plan,
                                   const std::vector<KernelCounters>& kernels);

// One traced kernel execution of the durations pass.
struct KernelTime {
  std::string kernel;
  double seconds = 0;
};

// `calls` calls traced in start order: each kernel's median and minimum duration, and the run's
// from the sum over one call's kernels.
std::vector<Metric> rollUpDurations(const std::vector<KernelTime>& times, std::size_t calls);

inline constexpr std::string_view kActivityMedian = "activity.duration.median";
inline constexpr std::string_view kActivityMin = "activity.duration.min";

}  // namespace kwb
