#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/deviceinfo.h"
#include "core/metriccatalog.h"
#include "core/runresult.h"

namespace kwb {

// Kernels one counter pass keeps (one range each); the runner skips calls that launch more.
inline constexpr std::size_t kMaxProfiledLaunches = 256;

struct ProfileOutcome {
  std::vector<Metric> metrics;
  // Why the pass could not run and what to do, as the end of a sentence; empty when it ran.
  std::string unavailable;
};

// The passes that read a run's kernels rather than time them: hardware counters (range
// profiler) and exact kernel durations (activity records). Each runs apart from timing.
class KernelProfiler {
 public:
  virtual ~KernelProfiler() = default;
  // Throws paramError("metrics") for a metric this chip does not have under any name.
  virtual void check(const MetricPlan& plan) = 0;
  // One `call` (the L2 already flushed) under the range profiler.
  virtual ProfileOutcome counters(const MetricPlan& plan, const std::function<void()>& call) = 0;
  // `calls` runs of `call` (each flushing L2 first) traced by the Activity API, less the kernels
  // named `ignoredSymbol` (the flush's own).
  virtual ProfileOutcome durations(const std::function<void()>& call, std::size_t calls,
                                   const std::string& ignoredSymbol) = 0;
};

// CUPTI's profiler where this build has CUPTI, otherwise one that says it has none.
std::unique_ptr<KernelProfiler> makeKernelProfiler(const DeviceInfo& device);

// The run's notice from the two passes' reasons: one sentence, naming what was not read.
std::string profileNotice(const std::string& durationsUnavailable,
                          const std::string& countersUnavailable);

}  // namespace kwb
