#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "measure/kernelprofiler.h"

namespace kwb {

class RangeProfiler;
class ActivityTracer;

// KernelProfiler on CUPTI. The range profiler starts on first use; when it cannot (no
// permission, another profiler, an unsupported GPU) every counter pass returns that sentence
// and the run goes on with timing only.
class CuptiProfiler final : public KernelProfiler {
 public:
  explicit CuptiProfiler(const DeviceInfo& device);
  ~CuptiProfiler() override;

  void check(const MetricPlan& plan) override;
  ProfileOutcome counters(const MetricPlan& plan, const std::function<void()>& call) override;
  ProfileOutcome durations(const std::function<void()>& call, std::size_t calls,
                           const std::string& ignoredSymbol) override;

 private:
  RangeProfiler* rangeProfiler();  // nullptr when it cannot start; unavailable_ says why
  // The chip's names for a plan's counters, worked out once per plan: a sweep checks every
  // point before it runs, and the counter pass needs them again.
  const std::vector<std::string>& chipNames(RangeProfiler& profiler, const MetricPlan& plan);

  DeviceInfo device_;
  std::unique_ptr<RangeProfiler> rangeProfiler_;
  std::unique_ptr<ActivityTracer> tracer_;
  std::optional<std::string> unavailable_;
  std::map<std::vector<std::string>, std::vector<std::string>> chipNames_;
};

}  // namespace kwb
