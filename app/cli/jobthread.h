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

// A job waiting for, or running on, a JobThread: its request id and its stop flag.
struct QueuedJob {
  virtual ~QueuedJob() = default;
  std::string id;
  std::atomic<bool> cancel{false};
};

// A request queued as it came, for the relays' own jobs.
struct RequestJob : QueuedJob {
  protocol::Request request;
};

// The GPU jobs of a worker or of a relay (over several GPUs, or as Slurm arrays): one at a time,
// in order, in a thread of their own, once the thread is opened. A queued job that is cancelled,
// or left when this stops, is answered with its done; the running one is asked to stop.
class JobThread {
 public:
  using Execute = std::function<void(QueuedJob& job)>;
  using Send = std::function<void(const protocol::Reply&)>;
  JobThread(Execute execute, Send send);
  ~JobThread();  // stop()
  JobThread(const JobThread&) = delete;
  JobThread& operator=(const JobThread&) = delete;

  // Run, sweep and tune requests: the jobs a relay may run itself.
  static bool takes(const protocol::Request& request);
  void open();  // jobs run from now on (they wait for what they need until then)
  void submit(std::shared_ptr<QueuedJob> job);
  // A request's own job, as the relays queue them.
  void submit(protocol::Request request);
  bool cancel(const std::string& id);  // false where no job of this id is here
  // Ends the queued jobs unrun (each with its done), stops the running one and waits for it.
  void stop();

 private:
  void loop();

  Execute execute_;
  Send send_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::shared_ptr<QueuedJob>> queue_;
  std::shared_ptr<QueuedJob> current_;
  bool open_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace kwb
