#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app/cli/devicepool.h"
#include "core/deviceinfo.h"
#include "core/protocol.h"

namespace kwb {

class RunStore;

// The runs, sweeps and tunings of a relay over several GPUs (`kwb --devices all worker`, as the
// window starts it when Settings name several GPUs): one job at a time, in a thread of its own,
// its points shared among a worker per GPU that lives as long as this. Each run is stored in
// `store` (when set) with the GPU it ran on, a sweep's as one sweep, and replied through `send`
// as the worker would: results, progress naming the GPU, a tuning's evaluations and report, done.
class PoolJobs {
 public:
  using Send = std::function<void(const protocol::Reply&)>;
  PoolJobs(std::vector<std::vector<std::string>> commands, std::vector<int> ordinals,
           RunStore* store, Send send);
  ~PoolJobs();  // stops the running job, ends the queued ones (each with its done)
  PoolJobs(const PoolJobs&) = delete;
  PoolJobs& operator=(const PoolJobs&) = delete;

  // What the GPUs are (a worker's devices answer), or why there are none: jobs wait for it.
  void setDevices(std::vector<DeviceInfo> all, std::string noDevice);
  // Run, sweep and tune requests are this one's.
  static bool takes(const protocol::Request& request);
  void submit(protocol::Request request);
  // False where no job of this id is running or queued here.
  bool cancel(const std::string& id);

 private:
  struct Job {
    protocol::Request request;
    std::atomic<bool> cancel{false};
  };
  void loop();
  void execute(Job& job);
  void runPoints(Job& job);
  void tune(Job& job);

  std::vector<std::vector<std::string>> commands_;
  std::vector<int> ordinals_;
  RunStore* store_;
  Send send_;
  std::unique_ptr<DevicePool> pool_;  // made at the first job, in the thread

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::shared_ptr<Job>> queue_;
  std::shared_ptr<Job> current_;
  std::optional<std::vector<DeviceInfo>> devices_;
  std::string noDevice_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace kwb
