#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/protocol.h"

namespace kwb {

// The jobs a relay runs itself (over several GPUs, or as Slurm arrays): one at a time, in order,
// in a thread of their own, once the thread is opened. A queued job that is cancelled, or left
// when this ends, is answered with its done; the running one is asked to stop.
class JobThread {
 public:
  using Execute =
      std::function<void(const protocol::Request& request, const std::atomic<bool>& cancel)>;
  using Send = std::function<void(const protocol::Reply&)>;
  JobThread(Execute execute, Send send);
  ~JobThread();
  JobThread(const JobThread&) = delete;
  JobThread& operator=(const JobThread&) = delete;

  // Run, sweep and tune requests: the jobs a relay may run itself.
  static bool takes(const protocol::Request& request);
  void open();  // jobs run from now on (they wait for what they need until then)
  void submit(protocol::Request request);
  bool cancel(const std::string& id);  // false where no job of this id is here

 private:
  struct Job {
    protocol::Request request;
    std::atomic<bool> cancel{false};
  };
  void loop();

  Execute execute_;
  Send send_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::shared_ptr<Job>> queue_;
  std::shared_ptr<Job> current_;
  bool open_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace kwb
