#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/deviceinfo.h"
#include "core/metriccatalog.h"
#include "core/paramset.h"
#include "core/runresult.h"
#include "measure/timer.h"

namespace kwb {

class Runner;
class RunStore;
class Variant;

struct JobOptions {
  TimingOptions timing;
  std::uint64_t seed = 1;
  bool verifyOnly = false;
  MetricPlan metrics;                      // hardware metrics read after timing; empty: none
  std::vector<std::string> tags;           // given to every stored run
  double hangSeconds = 30;                 // the checked call's limit
  std::optional<CopyCeiling> copyCeiling;  // the client's: none is looked up or measured
};

struct JobEvents {
  std::function<void(std::size_t done, std::size_t total, double etaSeconds,
                     const std::string& text)>
      progress;
  std::function<void(std::size_t index, const RunResult& result, std::optional<std::int64_t> runId)>
      result;
};

// Runs validated points of one variant on the device and stores each result as it comes:
// shared by `kwb run`, `kwb sweep` and the worker. Opens the device on first use and looks up
// the device's copy ceiling (the job's, memory, then the store, else measured once and stored).
class JobExecutor {
 public:
  // store may be null: nothing is kept, and the ceiling is measured once per process.
  JobExecutor(RunStore* store, int deviceOrdinal);
  ~JobExecutor();

  // Throws Error(NoDevice) when there is no device.
  Runner& runner();
  const DeviceInfo& device();
  CopyCeiling ceiling(const std::atomic<bool>* cancel, const JobEvents& events);

  // Runs every point in order and returns how many ran. A failed run is stored and the job goes
  // on; a point the device rejects (Error(Param)) ends the job with that error. Error(Cancelled)
  // when *cancel turns true.
  std::size_t runPoints(const std::shared_ptr<const Variant>& kernel,
                        const std::vector<ParamSet>& points, const JobOptions& options,
                        std::optional<std::int64_t> sweepId, const std::atomic<bool>* cancel,
                        const JobEvents& events);

 private:
  RunStore* store_;
  int deviceOrdinal_;
  std::unique_ptr<Runner> runner_;
  std::optional<CopyCeiling> ceiling_;
};

}  // namespace kwb
