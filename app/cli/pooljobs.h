#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/devicepool.h"
#include "app/cli/jobthread.h"
#include "core/deviceinfo.h"
#include "core/protocol.h"

namespace kwb {

class RunStore;

// The runs, sweeps and tunings of a relay over several GPUs (`kwb --devices all worker`, as the
// window starts it when Settings name several GPUs): one job at a time, in a thread of its own,
// its points shared among a worker per GPU (on `host`, or here where it is empty) that lives as
// long as this. Each run is stored in `store` (when set) with the GPU it ran on, a sweep's as one
// sweep, and replied through `send` as the worker would: results, progress naming the GPU, a
// tuning's evaluations and report, done.
class PoolJobs {
 public:
  using Send = std::function<void(const protocol::Reply&)>;
  PoolJobs(std::string host, std::vector<int> ordinals, RunStore* store, Send send);

  // What the GPUs are (a worker's devices answer), or why there are none: jobs wait for it.
  void setDevices(std::vector<DeviceInfo> all, std::string noDevice);
  void submit(protocol::Request request) { jobs_.submit(std::move(request)); }
  // False where no job of this id is running or queued here.
  bool cancel(const std::string& id) { return jobs_.cancel(id); }

 private:
  void execute(const protocol::Request& request, const std::atomic<bool>& cancel);
  void runPoints(const protocol::Request& request, const std::atomic<bool>& cancel);
  void tune(const protocol::Request& request, const std::atomic<bool>& cancel);

  std::string host_;
  std::vector<int> ordinals_;
  RunStore* store_;
  Send send_;
  std::unique_ptr<DevicePool> pool_;  // made at the first job, in the job thread
  std::vector<DeviceInfo> devices_;   // set before the jobs run
  std::string noDevice_;
  JobThread jobs_;  // last: its thread ends before the rest goes
};

}  // namespace kwb
