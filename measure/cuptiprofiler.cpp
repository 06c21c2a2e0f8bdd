#include "measure/cuptiprofiler.h"

#include "core/metricrollup.h"
#include "measure/activitytracer.h"
#include "measure/cupticheck.h"
#include "measure/launchrecorder.h"
#include "measure/nvperfhost.h"
#include "measure/rangeprofiler.h"

namespace kwb {
namespace {}  // namespace

CuptiProfiler::CuptiProfiler(const DeviceInfo& device) : device_(device) {}

CuptiProfiler::~CuptiProfiler() = default;

RangeProfiler* CuptiProfiler::rangeProfiler() {
  if (!rangeProfiler_ && !unavailable_) {
    try {
      preloadNvperfHost();
      rangeProfiler_ = std::make_unique<RangeProfiler>(device_.ordinal);
    } catch (const CuptiError& error) {
      unavailable_ = cuptiBlockedReason(error);
    }
  }
  return rangeProfiler_.get();
}

const std::vector<std::string>& CuptiProfiler::chipNames(RangeProfiler& profiler,
                                                         const MetricPlan& plan) {
  auto found = chipNames_.find(plan.counters);
  if (found == chipNames_.end())
    found = chipNames_.emplace(plan.counters, profiler.resolve(plan.counters)).first;
  return found->second;
}

void CuptiProfiler::check(const MetricPlan& plan) {
  if (RangeProfiler* profiler = rangeProfiler()) chipNames(*profiler, plan);
}

ProfileOutcome CuptiProfiler::counters(const MetricPlan& plan, const std::function<void()>& call) {
  RangeProfiler* profiler = rangeProfiler();
  if (!profiler) return {{}, *unavailable_};
  const std::vector<std::string>& names = chipNames(*profiler, plan);
  try {
    std::vector<std::vector<double>> ranges;
    std::vector<KernelLaunch> launches;
    {
      LaunchRecorder recorder;
      ranges = profiler->profile(names, call, kMaxProfiledLaunches);
      launches = recorder.launches();
    }
    if (ranges.empty())
      return {{}, "the variant launched no kernel (a copy engine or a driver call did the work)"};
    std::vector<KernelCounters> kernels;
    for (std::size_t r = 0; r < ranges.size(); ++r) {
      KernelCounters k;
      k.values = std::move(ranges[r]);
      // Auto ranges are numbered in launch order, the order the recorder saw.
      if (r < launches.size()) {
        k.kernel = launches[r].name;
        if (plan.theoreticalOccupancy && launches[r].function)
          k.theoreticalOccupancy = theoreticalOccupancy(launches[r], device_.maxThreadsPerSm);
      } else {
        k.kernel = "range " + std::to_string(r);
      }
      kernels.push_back(std::move(k));
    }
    return {rollUpCounters(plan, kernels), {}};
  } catch (const CuptiError& error) {
    return {{}, cuptiBlockedReason(error)};
  }
}

ProfileOutcome CuptiProfiler::durations(const std::function<void()>& call, std::size_t calls,
                                        const std::string& ignoredSymbol) {
  try {
    if (!tracer_) tracer_ = std::make_unique<ActivityTracer>();
    const auto records = tracer_->trace([&] {
      for (std::size_t c = 0; c < calls; ++c) call();
    });
    std::vector<KernelTime> times;
    for (const auto& r : records)
      if (r.symbol != ignoredSymbol) times.push_back({r.name, r.seconds()});
    return {rollUpDurations(times, calls), {}};
  } catch (const CuptiError& error) {
    return {{}, cuptiBlockedReason(error)};
  }
}

}  // namespace kwb
