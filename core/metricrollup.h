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

// `calls` calls traced in start order: each kernel's median and minimum duration, the run's from
// the sum over one call's kernels, and the kernels per call. Past kMaxKernelRows kernels a call,
// one row per kernel name ("name xN": its N launches a call summed) instead of one per launch.
std::vector<Metric> rollUpDurations(const std::vector<KernelTime>& times, std::size_t calls);

inline constexpr std::size_t kMaxKernelRows = 32;
inline constexpr std::string_view kActivityMedian = "activity.duration.median";
inline constexpr std::string_view kActivityMin = "activity.duration.min";
inline constexpr std::string_view kActivityKernels = "activity.kernels_per_call";
// The host's view of one call, measured for every run: issue it and wait for it (L2 flushed
// before, outside the span), the issuing alone, and the launches the workload issues.
inline constexpr std::string_view kHostWall = "host.wall_per_call";
inline constexpr std::string_view kHostEnqueue = "host.enqueue_per_call";
inline constexpr std::string_view kHostLaunches = "host.launches_per_call";

}  // namespace kwb
