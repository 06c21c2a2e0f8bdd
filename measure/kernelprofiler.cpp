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
    return {{}, "this build of kwb has no CUPTI (configured with KWB_WITH_CUPTI=OFF)"};
  }
  ProfileOutcome durations(const std::function<void()>&, std::size_t, const std::string&) override {
    return {};
  }
};

}  // namespace

std::string profileNotice(const std::string& durationsUnavailable,
                          const std::string& countersUnavailable) {
  if (!durationsUnavailable.empty() && durationsUnavailable == countersUnavailable)
    return "Kernel times and hardware counters were not read: " + countersUnavailable +
           "; this run has event timing only.";
  std::string notice;
  if (!durationsUnavailable.empty())
    notice = "Kernel times were not traced: " + durationsUnavailable +
             "; the event timing stands alone.";
  if (!countersUnavailable.empty())
    notice += (notice.empty() ? "" : " ") + std::string("Hardware counters were not read: ") +
              countersUnavailable + "; this run has timing only.";
  return notice;
}

std::unique_ptr<KernelProfiler> makeKernelProfiler(const DeviceInfo& device) {
#if KWB_HAVE_CUPTI
  return std::make_unique<CuptiProfiler>(device);
#else
  (void)device;
  return std::make_unique<NoProfiler>();
#endif
}

}  // namespace kwb
