#include "app/cli/worker.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>

#include "app/cli/clicontext.h"
#include "app/cli/exitcodes.h"
#include "app/cli/jobthread.h"
#include "app/cli/sasslookup.h"
#include "app/cli/tunejob.h"
#include "core/jsoncodec.h"
#include "core/protocol.h"
#include "core/version.h"
#include "db/runstore.h"
#include "db/sasscache.h"
#include "kernels/registry.h"
#include "kernels/user/uservariant.h"
#include "measure/devicequery.h"

namespace kwb {
namespace {

struct Job : QueuedJob {
  protocol::Type type;  // Run, Sweep, Tune or Sass
  std::shared_ptr<const Variant> kernel;
  std::vector<ParamSet> points;
  JobOptions options;
  nlohmann::json base;
  nlohmann::json axes;
  std::unique_ptr<GpuTuning> tuning;  // a tune request's
};

// Reads a run, sweep, tune or sass request into a validated job; throws Error(Usage/Param) as the
// CLI does.
std::shared_ptr<Job> parseJob(const protocol::Request& request) {
  auto job = std::make_shared<Job>();
  job->id = request.id;
  job->type = request.type();
  const auto* run = std::get_if<protocol::RunRequest>(&request.body);
  const auto* sweep = std::get_if<protocol::SweepRequest>(&request.body);
  const protocol::Kernel& kernel = *request.kernel();
  job->options = jobOptionsOf(run ? run->options : sweep ? sweep->options : MeasureSettings{});
  job->kernel = variantFor(kernel);
  job->base = toJson(ParamSet(kernel.params));
  if (const auto* tune = std::get_if<protocol::TuneRequest>(&request.body)) {
    job->tuning = std::make_unique<GpuTuning>(job->kernel, kernel.params, tune->tune,
                                              jobOptionsOf(tune->options));
    return job;
  }
  if (sweep) {
    job->points = expandFor(*job->kernel, kernel.params, sweep->axes);
    job->axes = sweep->axes;
  } else {
    job->points = {resolveFor(*job->kernel, kernel.params)};
  }
  return job;
}

// What a kernel file compiles for where the worker has no device: the architecture CI checks.
constexpr int kCheckArch = 90;

// A resolve request: the parameters with defaults applied and, where there is a device, what the
// variant derives from them there (grid, blocks per SM, waves, ...) and the bytes it moves.
protocol::Resolved resolve(const protocol::Kernel& kernel, int deviceOrdinal) {
  const auto variant = variantFor(kernel);
  protocol::Resolved out;
  out.params = resolveFor(*variant, kernel.params);
  const auto devices = queryDevices();
  if (deviceOrdinal < 0 || static_cast<std::size_t>(deviceOrdinal) >= devices.size()) {
    // NVRTC needs no device: a kernel file's compile errors are shown all the same.
    if (const auto* file = dynamic_cast<const UserVariant*>(variant.get()))
      file->checkCompiles(out.params, kCheckArch);
    out.noDevice =
        devices.empty() ? noDeviceReason() : "no device " + std::to_string(deviceOrdinal);
    return out;
  }
  const DeviceInfo& device = devices[static_cast<std::size_t>(deviceOrdinal)];
  const auto workload = variant->create(out.params, device);
  out.derived = workload->derived();
  out.bytes = workload->bytesMoved();
  out.device = device.name;
  return out;
}

class Worker {
 public:
  Worker(std::ostream& out, RunStore* store, int deviceOrdinal)
      : out_(out),
        executor_(store, deviceOrdinal),
        store_(store),
        cache_(store ? std::make_unique<SassCache>(store->database()) : nullptr),
        deviceOrdinal_(deviceOrdinal),
        jobs_([this](QueuedJob& job) { execute(static_cast<Job&>(job)); },
              [this](const protocol::Reply& reply) { send(reply); }) {
    jobs_.open();
  }

  int serve(std::istream& in) {
    send({"", protocol::Hello{kAppVersion}});
    std::string line;
    while (std::getline(in, line)) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      if (!handle(line)) break;
    }
    // Queued jobs end unrun, each with its "done"; the running one stops between samples.
    jobs_.stop();
    return kExitOk;
  }

 private:
  void send(const protocol::Reply& reply) {
    std::lock_guard lock(outMutex_);
    out_ << protocol::encode(reply);
    out_.flush();
  }

  // False once the client asked to shut down.
  bool handle(const std::string& line) {
    protocol::Request request;
    try {
      request = protocol::decodeRequest(line);
    } catch (const protocol::DecodeError& error) {
      send({error.id(), protocol::Failure::of(error)});
      return true;
    }
    try {
      if (std::holds_alternative<protocol::ShutdownRequest>(request.body)) return false;
      if (request.isJob()) {
        // A sass request is a job too: learning which kernels a call launches runs it once.
        jobs_.submit(parseJob(request));
      } else if (std::holds_alternative<protocol::ListRequest>(request.body)) {
        send({request.id, protocol::Catalog{Registry::instance().families()}});
      } else if (const auto* r = std::get_if<protocol::ResolveRequest>(&request.body)) {
        send({request.id, resolve(r->kernel, deviceOrdinal_)});
      } else if (std::holds_alternative<protocol::DevicesRequest>(request.body)) {
        // Cheap and thread-safe: answered at once, even while a job runs.
        auto devices = queryDevices();
        if (devices.empty()) throw Error(ErrorKind::NoDevice, noDeviceReason());
        send({request.id, protocol::DeviceList{std::move(devices)}});
      } else if (const auto* c = std::get_if<protocol::CancelRequest>(&request.body)) {
        if (!jobs_.cancel(c->target))
          throw Error(ErrorKind::Usage, "no job '" + c->target + "' to cancel");
      }
    } catch (const Error& error) {
      send({request.id, protocol::Failure::of(error)});
    }
    return true;
  }

  void execute(Job& job) {
    std::size_t completed = 0;
    JobEvents events;
    events.progress = [&](std::size_t done, std::size_t total, double eta,
                          const std::string& text) {
      send({job.id, protocol::Progress{done, total, eta, text}});
    };
    events.result = [&](std::size_t index, const RunResult& result,
                        std::optional<std::int64_t> runId) {
      ++completed;
      send({job.id, protocol::Result{index, result, runId}});
    };
    try {
      if (job.type == protocol::Type::Sass) {
        send({job.id, protocol::SassListing{lookUpSass(executor_.runner(), cache_.get(), job.kernel,
                                                       job.points.front())}});
        return;
      }
      if (job.tuning) {
        const TuneSpace& space = job.tuning->space();
        const std::size_t total = job.tuning->evaluationsAtMost();
        const TuneReport report = job.tuning->run(
            executor_, store_, &job.cancel,
            [&](const TuneOutcome& sofar) {
              send({job.id, protocol::Evaluated{sofar.evaluations.size(),
                                                tuneEvaluationJson(space, sofar)}});
              send({job.id, protocol::Progress{sofar.evaluations.size(), total, 0,
                                               tuneProgressText(space, sofar)}});
            },
            events);
        send({job.id, protocol::Tuned{tuneReportJson(report)}});
        send({job.id, protocol::Done{completed, job.cancel.load()}});
        return;
      }
      std::optional<std::int64_t> sweepId;
      if (store_ && job.type == protocol::Type::Sweep)
        sweepId = store_->createSweep(job.kernel->info().family, job.kernel->info().name, job.base,
                                      job.axes);
      executor_.runPoints(job.kernel, job.points, job.options, sweepId, &job.cancel, events);
      send({job.id, protocol::Done{completed, false}});
    } catch (const Error& error) {
      if (error.kind() == ErrorKind::Cancelled) {
        send({job.id, protocol::Done{completed, true}});
        return;
      }
      send({job.id, protocol::Failure::of(error)});
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
  JobThread jobs_;  // last: its thread ends before the rest goes
};

}  // namespace

int runWorker(std::istream& in, std::ostream& out, RunStore* store, int deviceOrdinal) {
  Worker worker(out, store, deviceOrdinal);
  return worker.serve(in);
}

}  // namespace kwb
