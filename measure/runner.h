#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "core/ceilings.h"
#include "core/deviceinfo.h"
#include "core/metriccatalog.h"
#include "core/paramset.h"
#include "core/runresult.h"
#include "measure/devicebuffer.h"
#include "measure/timer.h"

namespace kwb {

class Variant;
class KernelProfiler;
class GpuStateSampler;
class Workload;

struct RunRequest {
  std::string family;
  std::string variant;
  // The variant itself where it is not the registry's (a user's kernel file); family and
  // variant are then ignored.
  std::shared_ptr<const Variant> kernel;
  ParamSet params;  // resolved by the registry
  TimingOptions timing;
  std::uint64_t seed = 1;
  bool verifyOnly = false;  // check the output, skip timing
  MetricPlan metrics;       // hardware metrics to read in a pass after timing; empty: none
  double hangSeconds = 30;  // the checked call not done by then: a hang (see healthy())
};

// Runs registered variants on one device: checks device limits, allocates, fills inputs with
// seeded random data, poisons outputs, runs once and verifies against the CPU reference, then
// times. Holds the device's stream, L2 flusher and events for all runs.
class Runner {
 public:
  // Throws Error(NoDevice) when there is no such device.
  explicit Runner(int ordinal);
  ~Runner();
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  const DeviceInfo& device() const { return device_; }

  // Rejected requests (a device limit, too little memory) throw Error(Param) naming the
  // parameter; a run that started and failed comes back with status Failed and its error;
  // Error(Cancelled) when *cancel turns true.
  RunResult run(const RunRequest& request, const std::atomic<bool>* cancel = nullptr);

  // The kernels (mangled names, each once, in launch order) that one call of the request's
  // configuration launches, learned by running it once. Error(Param) as run() for a request the
  // device rejects; Error(Tool) when CUPTI cannot trace here.
  std::vector<std::string> launchedKernels(const RunRequest& request);

  // The best bandwidth of the copy variants on a large buffer: the device's practical ceiling.
  CopyCeiling measureCopyCeiling(const std::atomic<bool>* cancel = nullptr);
  // Every ceiling of core/ceilings.h that this device has, each the best of ten timed launches of
  // its micro-kernel with the SM clock it ran at; DRAM's is the faster of the copy ceiling
  // (measured here) and a read of a buffer far past L2.
  std::vector<DeviceCeiling> measureCeilings(const std::atomic<bool>* cancel = nullptr);
  // The SM clock's maximum, MHz; 0 where the device does not say.
  double smClockMaxMhz() const { return smClockMaxMhz_; }

  // False once the CUDA context is broken (an illegal address, say) or a kernel hangs: the
  // process must end, without waiting for the device (std::_Exit).
  bool healthy() const;
  // A kernel of this process never finished: nothing may wait for the device (not even the
  // destructors, whose frees would); end with std::_Exit.
  bool hung() const { return hung_; }

 private:
  // A workload with its buffers allocated, inputs filled and outputs poisoned.
  struct Prepared {
    std::unique_ptr<Workload> workload;
    std::vector<DeviceBuffer> buffers;
    std::vector<void*> pointers;
  };
  static const Variant& variantOf(const RunRequest& request);
  void checkLimits(const RunRequest& request) const;
  Prepared prepare(const Variant& variant, const RunRequest& request);
  void execute(const Variant& variant, const RunRequest& request, RunResult& result,
               const std::atomic<bool>* cancel);
  // The checked call's outputs against the reference; false (the result says why) where they
  // differ.
  bool verify(Workload& workload, const std::vector<void*>& pointers, RunResult& result);
  void time(Workload& workload, const std::vector<void*>& pointers, const RunRequest& request,
            RunResult& result, const std::atomic<bool>* cancel);
  void hostTimes(Workload& workload, const std::vector<void*>& pointers, RunResult& result);
  void profile(Workload& workload, const std::vector<void*>& pointers, const RunRequest& request,
               RunResult& result);

  void waitForCheckedCall(double seconds, Prepared& prepared);

  DeviceInfo device_;
  double smClockMaxMhz_ = 0;  // the device's maximum SM clock; 0 where it does not say
  bool hung_ = false;
  cudaStream_t stream_ = nullptr;
  std::unique_ptr<Timer> timer_;
  std::unique_ptr<KernelProfiler> profiler_;
  std::unique_ptr<GpuStateSampler> stateSampler_;
};

}  // namespace kwb
