#include "app/cli/relayworker.h"

#include <csignal>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include "app/cli/clicontext.h"
#include "app/cli/exitcodes.h"
#include "app/cli/pooljobs.h"
#include "app/cli/slurmjobs.h"
#include "app/cli/tunejob.h"
#include "app/cli/workercommand.h"
#include "app/cli/workerprocess.h"
#include "core/format.h"
#include "core/jsoncodec.h"
#include "db/runstore.h"
#include "db/tunehistory.h"
#include "kernels/user/uservariant.h"

namespace kwb {
namespace {

// The relay's own question to the remote worker, answered before any job's result.
const std::string kDevicesId = "relay:devices";

// A job passed on: what is needed to file its results here.
struct RelayedJob {
  protocol::Request request;
  std::optional<std::int64_t> sweepId;
  std::vector<std::string> tags;
  std::optional<std::int64_t> lastRunId;          // for the tuning's next evaluation
  std::map<std::size_t, std::int64_t> evaluated;  // a tuning's evaluation number -> run
  std::map<std::string, std::int64_t> byParams;   // a run's parameters -> its newest run
};

std::string paramsKey(const nlohmann::json& values) {
  return values.dump();
}

class Relay {
 public:
  Relay(int input, std::ostream& out, RunStore* store, const std::string& host,
        const std::vector<int>& ordinals, const SlurmOptions& slurm)
      : input_(input),
        out_(out),
        store_(store),
        host_(host),
        remote_(workerCommand(host, ordinals.front())) {
    if (slurm.use) {
      slurm_ =
          std::make_unique<SlurmJobs>(*store, slurm, [this](const protocol::Reply& r) { send(r); });
    } else if (ordinals.size() > 1) {
      pool_ = std::make_unique<PoolJobs>(host, ordinals, store,
                                         [this](const protocol::Reply& r) { send(r); });
    }
    if (store_ || pool_) remote_.send({kDevicesId, protocol::DevicesRequest{}});
  }

  // The exit status: 0 once the client has ended and the remote worker with it.
  int serve(std::ostream& err) {
    while (true) {
      pollfd fds[3] = {{inputOpen_ ? input_ : -1, POLLIN, 0},
                       {remote_.outputFd(), POLLIN, 0},
                       {remote_.errorFd(), POLLIN, 0}};
      poll(fds, 3, 500);
      if (fds[0].revents) readRequests();
      remote_.readErrors();
      try {
        for (protocol::Reply& reply : remote_.readReplies(workerPlace(host_))) pass(reply);
      } catch (const Error& error) {
        err << "kwb: " << printable(error.what()) << "\n";
        return exitCodeFor(error.kind());
      }
      if (!remote_.running()) {
        // Asked to end, with every job answered: the end of a session.
        if (!inputOpen_ && jobs_.empty() && greeted_) return kExitOk;
        err << "kwb: " << workerPlace(host_) << ": the connection to the worker ended ("
            << printable(remote_.endSentence()) << "); the results that arrived are kept\n";
        return kExitFailed;
      }
    }
  }

 private:
  void readRequests() {
    char buffer[65536];
    const ssize_t n = read(input_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) return;
    if (n <= 0) {
      // The client is gone: the remote worker stops its jobs and ends.
      inputOpen_ = false;
      pool_.reset();
      slurm_.reset();
      remote_.send({"relay:end", protocol::ShutdownRequest{}});
      return;
    }
    pending_.append(buffer, static_cast<std::size_t>(n));
    std::size_t start = 0;
    for (std::size_t nl; (nl = pending_.find('\n', start)) != std::string::npos; start = nl + 1)
      forward(std::string_view(pending_).substr(start, nl - start));
    pending_.erase(0, start);
  }

  void forward(std::string_view line) {
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) return;
    protocol::Request request;
    try {
      request = protocol::decodeRequest(line);
    } catch (const protocol::DecodeError& error) {
      send({error.id(), protocol::Failure::of(error)});
      return;
    }
    if (slurm_ && JobThread::takes(request)) {
      slurm_->submit(std::move(request));
      return;
    }
    if (pool_ && JobThread::takes(request)) {
      pool_->submit(std::move(request));
      return;
    }
    if (const auto* c = std::get_if<protocol::CancelRequest>(&request.body);
        c && ((pool_ && pool_->cancel(c->target)) || (slurm_ && slurm_->cancel(c->target))))
      return;
    if (request.isJob()) {
      RelayedJob job;
      job.request = request;
      const MeasureSettings* settings = request.options();
      try {
        job.tags = jobOptionsOf(settings ? *settings : MeasureSettings{}).tags;
      } catch (const Error&) {
        // The remote worker refuses it in its own words.
      }
      if (request.type() == protocol::Type::Tune) job.tags.push_back("tune");
      jobs_[request.id] = std::move(job);
    }
    remote_.send(request);
  }

  void send(const protocol::Reply& reply) {
    std::lock_guard lock(outMutex_);  // the pool's jobs reply from their thread
    out_ << protocol::encode(reply);
    out_.flush();
  }

  void pass(protocol::Reply& reply) {
    if (reply.id == kDevicesId) {
      const auto* list = std::get_if<protocol::DeviceList>(&reply.body);
      if (pool_) {
        const auto* failure = std::get_if<protocol::Failure>(&reply.body);
        pool_->setDevices(list ? list->devices : std::vector<DeviceInfo>{},
                          failure ? workerPlace(host_) + ": " + failure->message : std::string());
      } else if (list) {
        for (const DeviceInfo& device : list->devices) store_->upsertDevice(device);
      }
      return;
    }
    if (reply.id == "relay:end") return;
    if (std::holds_alternative<protocol::Hello>(reply.body)) greeted_ = true;
    const auto job = jobs_.find(reply.id);
    if (job != jobs_.end() && store_) file(job->second, reply);
    send(reply);
    if (job != jobs_.end() && (std::holds_alternative<protocol::Done>(reply.body) ||
                               std::holds_alternative<protocol::Failure>(reply.body)))
      jobs_.erase(job);
  }

  // Stores a result here and gives replies this history's ids.
  void file(RelayedJob& job, protocol::Reply& reply) {
    if (auto* result = std::get_if<protocol::Result>(&reply.body)) {
      if (!job.sweepId && job.request.type() != protocol::Type::Run) job.sweepId = createSweep(job);
      const std::int64_t id = store_->insertRun(result->run, job.sweepId, job.tags);
      result->runId = id;
      job.lastRunId = id;
      job.byParams[paramsKey(toJson(result->run.params()))] = id;
    } else if (auto* e = std::get_if<protocol::Evaluated>(&reply.body)) {
      auto& runId = e->evaluation["run_id"];
      if (runId.is_null() && !e->evaluation.value("cached", false) && job.lastRunId) {
        runId = *job.lastRunId;
        job.evaluated[e->number] = *job.lastRunId;
      }
      job.lastRunId.reset();
    } else if (auto* tuned = std::get_if<protocol::Tuned>(&reply.body)) {
      nlohmann::json& report = tuned->report;
      if (job.sweepId) report["sweep_id"] = *job.sweepId;
      auto& evaluations = report["evaluations"];
      for (std::size_t i = 0; i < evaluations.size(); ++i)
        if (const auto it = job.evaluated.find(i + 1); it != job.evaluated.end())
          evaluations[i]["run_id"] = it->second;
      for (auto& finalist : report["finalists"])
        if (const auto it = job.byParams.find(paramsKey(finalist["all_params"]));
            it != job.byParams.end())
          finalist["run_id"] = it->second;
    }
  }

  std::int64_t createSweep(const RelayedJob& job) {
    const protocol::Kernel& kernel = *job.request.kernel();
    const auto variant = variantFor(kernel);
    const VariantInfo& info = variant->info();
    const nlohmann::json base = toJson(ParamSet(kernel.params));
    if (const auto* sweep = std::get_if<protocol::SweepRequest>(&job.request.body))
      return store_->createSweep(info.family, info.name, base, sweep->axes);
    const auto& tune = std::get<protocol::TuneRequest>(job.request.body);
    const GpuTuning tuning(variant, kernel.params, tune.tune, jobOptionsOf(tune.options));
    return store_->createSweep(
        info.family, info.name, base,
        tuneSweepAxes(tuning.space(), tune.tune.strategy, tune.tune.objective));
  }

  int input_;  // the client's requests
  std::ostream& out_;
  RunStore* store_;
  std::string host_;
  WorkerProcess remote_;
  bool inputOpen_ = true;
  bool greeted_ = false;
  std::string pending_;
  std::map<std::string, RelayedJob> jobs_;
  std::mutex outMutex_;
  std::unique_ptr<PoolJobs> pool_;    // where several GPUs share the runs, sweeps and tunings
  std::unique_ptr<SlurmJobs> slurm_;  // where runs and sweeps go to Slurm
};

}  // namespace

int runRelay(std::istream& in, std::ostream& out, std::ostream& err, RunStore* store,
             const std::string& host, const std::vector<int>& ordinals, const SlurmOptions& slurm) {
  // A client that has gone shows as the end of the input: its jobs are then stopped where they
  // run, rather than this process ended by a write to a closed pipe.
  std::signal(SIGPIPE, SIG_IGN);
  if (&in == &std::cin) return Relay(STDIN_FILENO, out, store, host, ordinals, slurm).serve(err);
  // Requests from a stream of the caller's (kwb run in-process): through a pipe, to be polled.
  int pipeFds[2];
  if (pipe2(pipeFds, O_CLOEXEC) != 0) throw Error(ErrorKind::Internal, "no pipe for the relay");
  std::thread feeder([&in, write = pipeFds[1]] {
    std::string line;
    while (std::getline(in, line)) {
      line += '\n';
      if (::write(write, line.data(), line.size()) < 0) break;
    }
    close(write);
  });
  int status = kExitFailed;
  try {
    status = Relay(pipeFds[0], out, store, host, ordinals, slurm).serve(err);
  } catch (...) {
    close(pipeFds[0]);
    feeder.join();
    throw;
  }
  close(pipeFds[0]);
  feeder.join();
  return status;
}

}  // namespace kwb
