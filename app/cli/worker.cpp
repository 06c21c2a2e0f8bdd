#include "app/cli/worker.h"

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "app/cli/clicontext.h"
#include "app/cli/exitcodes.h"
#include "app/cli/sasslookup.h"
#include "core/jsoncodec.h"
#include "core/protocol.h"
#include "core/version.h"
#include "db/runstore.h"
#include "db/sasscache.h"
#include "kernels/registry.h"
#include "measure/devicequery.h"

namespace kwb {
namespace {

using nlohmann::json;

struct Job {
  std::string id;
  std::string type;  // "run", "sweep" or "sass"
  std::string family;
  std::string variant;
  std::vector<ParamSet> points;
  JobOptions options;
  json base;
  json axes;
  std::atomic<bool> cancel{false};
};

std::string valueText(const json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

// The family, variant and parameters of a request, as the CLI would have read them.
MeasureCliOptions kernelOf(const json& body) {
  MeasureCliOptions o;
  o.family = body.value("family", "");
  o.variant = body.value("variant", "");
  const json params = body.value("params", json::object());
  if (!params.is_object()) throw Error(ErrorKind::Usage, "\"params\" must be an object");
  for (const auto& [name, value] : params.items())
    o.params.push_back(name + "=" + valueText(value));
  return o;
}

// Reads a run, sweep or sass request into a validated job; throws Error(Usage/Param) as the
// CLI does.
std::shared_ptr<Job> parseMeasureJob(const protocol::Message& message) {
  const json& body = message.body;
  auto job = std::make_shared<Job>();
  job->id = message.id;
  job->type = message.type;
  MeasureCliOptions o = kernelOf(body);
  const json options = body.value("options", json::object());
  if (!options.is_object()) throw Error(ErrorKind::Usage, "\"options\" must be an object");
  try {
    o.mode = options.value("mode", o.mode);
    o.budget = options.value("budget_s", o.budget);
    o.minSamples = options.value("min_samples", o.minSamples);
    o.maxSamples = options.value("max_samples", o.maxSamples);
    o.targetRsd = options.value("target_rsd", o.targetRsd);
    o.seed = options.value("seed", o.seed);
    o.verifyOnly = options.value("verify_only", o.verifyOnly);
    o.metrics = options.value("metrics", o.metrics);
  } catch (const json::exception& e) {
    throw Error(ErrorKind::Usage, std::string("bad \"options\": ") + e.what());
  }

  const RawParams raw = o.rawParams();
  job->options = o.jobOptions();
  job->family = o.family;
  job->variant = o.variant;
  job->base = toJson(ParamSet(raw));
  if (message.type == "sweep") {
    const json axes = body.value("axes", json::array());
    if (!axes.is_array()) throw Error(ErrorKind::Usage, "\"axes\" must be an array of strings");
    std::vector<std::string> axisTexts;
    for (const auto& axis : axes) axisTexts.push_back(valueText(axis));
    job->points = Registry::instance().expand(o.family, o.variant, raw, axisTexts);
    job->axes = axisTexts;
  } else {
    job->points = {Registry::instance().resolve(o.family, o.variant, raw)};
  }
  return job;
}

// A resolve request: the parameters with defaults applied and, where there is a device, what the
// variant derives from them there (grid, blocks per SM, waves, ...) and the bytes it moves.
json resolveReply(const protocol::Message& message, int deviceOrdinal) {
  const MeasureCliOptions o = kernelOf(message.body);
  const Registry& registry = Registry::instance();
  const ParamSet params = registry.resolve(o.family, o.variant, o.rawParams());
  const auto devices = queryDevices();
  if (deviceOrdinal < 0 || static_cast<std::size_t>(deviceOrdinal) >= devices.size())
    return protocol::resolved(
        message.id, params, std::nullopt, 0, "",
        devices.empty() ? noDeviceReason() : "no device " + std::to_string(deviceOrdinal));
  const DeviceInfo& device = devices[static_cast<std::size_t>(deviceOrdinal)];
  const auto workload = registry.find(o.family, o.variant).create(params, device);
  return protocol::resolved(message.id, params, workload->derived(), workload->bytesMoved(),
                            device.name, "");
}

class Worker {
 public:
  Worker(std::ostream& out, RunStore* store, int deviceOrdinal)
      : out_(out),
        executor_(store, deviceOrdinal),
        store_(store),
        cache_(store ? std::make_unique<SassCache>(store->database()) : nullptr),
        deviceOrdinal_(deviceOrdinal) {}

  int serve(std::istream& in) {
    send(protocol::hello(kAppVersion));
    std::thread jobs([this] { jobLoop(); });
    std::string line;
    while (std::getline(in, line)) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      if (!handle(line)) break;
    }
    stopAll();
    jobs.join();
    return kExitOk;
  }

 private:
  void send(const json& message) {
    std::lock_guard lock(outMutex_);
    out_ << protocol::encode(message);
    out_.flush();
  }

  // False once the client asked to shut down.
  bool handle(const std::string& line) {
    protocol::Message message;
    try {
      message = protocol::decode(line);
    } catch (const Error& error) {
      send(protocol::error("", error));
      return true;
    }
    try {
      if (message.type == "list") {
        send(protocol::list(message.id, Registry::instance().families()));
      } else if (message.type == "run" || message.type == "sweep" || message.type == "sass") {
        // A sass request is a job too: learning which kernels a call launches runs it once.
        enqueue(parseMeasureJob(message));
      } else if (message.type == "resolve") {
        send(resolveReply(message, deviceOrdinal_));
      } else if (message.type == "devices") {
        // Cheap and thread-safe: answered at once, even while a job runs.
        auto devices = queryDevices();
        if (devices.empty()) throw Error(ErrorKind::NoDevice, noDeviceReason());
        send(protocol::devices(message.id, devices));
      } else if (message.type == "cancel") {
        cancel(message.body.value("target", ""));
      } else if (message.type == "shutdown") {
        return false;
      } else {
        throw Error(ErrorKind::Usage,
                    "unknown request type '" + message.type +
                        "'; allowed: run, sweep, sass, resolve, devices, list, cancel, shutdown");
      }
    } catch (const Error& error) {
      send(protocol::error(message.id, error));
    }
    return true;
  }

  void enqueue(std::shared_ptr<Job> job) {
    {
      std::lock_guard lock(jobsMutex_);
      queue_.push_back(std::move(job));
    }
    jobsChanged_.notify_one();
  }

  void cancel(const std::string& target) {
    std::shared_ptr<Job> removed;
    {
      std::lock_guard lock(jobsMutex_);
      if (current_ && current_->id == target) {
        current_->cancel = true;
        return;
      }
      for (auto it = queue_.begin(); it != queue_.end(); ++it) {
        if ((*it)->id == target) {
          removed = *it;
          queue_.erase(it);
          break;
        }
      }
    }
    if (removed)
      send(protocol::done(target, 0, true));
    else
      throw Error(ErrorKind::Usage, "no job '" + target + "' to cancel");
  }

  // Queued jobs end unrun, each with its "done"; the running one stops between samples.
  void stopAll() {
    std::deque<std::shared_ptr<Job>> dropped;
    {
      std::lock_guard lock(jobsMutex_);
      stopping_ = true;
      dropped.swap(queue_);
      if (current_) current_->cancel = true;
    }
    jobsChanged_.notify_one();
    for (const auto& job : dropped) send(protocol::done(job->id, 0, true));
  }

  void jobLoop() {
    while (true) {
      std::shared_ptr<Job> job;
      {
        std::unique_lock lock(jobsMutex_);
        jobsChanged_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (stopping_) return;
        job = queue_.front();
        queue_.pop_front();
        current_ = job;
      }
      execute(*job);
      std::lock_guard lock(jobsMutex_);
      current_.reset();
    }
  }

  void execute(Job& job) {
    std::size_t completed = 0;
    JobEvents events;
    events.progress = [&](std::size_t done, std::size_t total, double eta,
                          const std::string& text) {
      send(protocol::progress(job.id, done, total, eta, text));
    };
    events.result = [&](std::size_t index, const RunResult& result,
                        std::optional<std::int64_t> runId) {
      ++completed;
      send(protocol::result(job.id, index, result, runId));
    };
    try {
      if (job.type == "sass") {
        send(protocol::sass(job.id, lookUpSass(executor_.runner(), cache_.get(), job.family,
                                               job.variant, job.points.front())));
        return;
      }
      std::optional<std::int64_t> sweepId;
      if (store_ && job.type == "sweep")
        sweepId = store_->createSweep(job.family, job.variant, job.base, job.axes);
      executor_.runPoints(job.family, job.variant, job.points, job.options, sweepId, &job.cancel,
                          events);
      send(protocol::done(job.id, completed, false));
    } catch (const Error& error) {
      if (error.kind() == ErrorKind::Cancelled) {
        send(protocol::done(job.id, completed, true));
        return;
      }
      send(protocol::error(job.id, error));
      // A CUDA error that escaped the run leaves this process's context in doubt: end it, and
      // let the client start a fresh worker for the next job.
      if (error.kind() == ErrorKind::Cuda) std::_Exit(kExitFailed);
    }
  }

  std::ostream& out_;
  std::mutex outMutex_;
  JobExecutor executor_;
  RunStore* store_;
  std::unique_ptr<SassCache> cache_;
  int deviceOrdinal_;
  std::mutex jobsMutex_;
  std::condition_variable jobsChanged_;
  std::deque<std::shared_ptr<Job>> queue_;
  std::shared_ptr<Job> current_;
  bool stopping_ = false;
};

}  // namespace

int runWorker(std::istream& in, std::ostream& out, RunStore* store, int deviceOrdinal) {
  Worker worker(out, store, deviceOrdinal);
  return worker.serve(in);
}

}  // namespace kwb
