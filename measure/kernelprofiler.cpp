#include "measure/kernelprofiler.h"

#include "measure/measureconfig.h"
#if KWB_HAVE_CUPTI
#include "measure/cuptiprofiler.h"
#endif

namespace kwb {
namespace {

class NoProfiler final : public KernelProfiler {
 public:
  void check(const MetricPlan&) override {}
  ProfileOutcome counters(const MetricPlan&, const std::function<void()>&) override {
    return {{},
            "This build of kwb has no CUPTI (configured with KWB_WITH_CUPTI=OFF), so it reads "
            "no hardware counters; this run has timing only."};
  }
  ProfileOutcome durations(const std::function<void()>&, std::size_t) override { return {}; }
};

}  // namespace

std::unique_ptr<KernelProfiler> makeKernelProfiler(const DeviceInfo& device) {
#if KWB_HAVE_CUPTI
  return std::make_unique<CuptiProfiler>(device);
#else
  (void)device;
  return std::make_unique<NoProfiler>();
#endif
}

}  // namespace kwb
