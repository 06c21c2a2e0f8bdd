#include "app/cli/pooljobs.h"

#include "app/cli/clicontext.h"
#include "app/cli/pooledtuning.h"
#include "app/cli/poolgpus.h"
#include "core/jsoncodec.h"
#include "core/tuneexport.h"
#include "db/runstore.h"
#include "kernels/registry.h"
#include "kernels/user/uservariant.h"

namespace kwb {

PoolJobs::PoolJobs(std::string host, std::vector<int> ordinals, RunStore* store, Send send)
    : host_(std::move(host)),
      ordinals_(std::move(ordinals)),
      store_(store),
      send_(send),
      jobs_(
          [this](QueuedJob& job) {
            auto& queued = static_cast<RequestJob&>(job);
            execute(queued.request, queued.cancel);
          },
          send) {}

void PoolJobs::setDevices(std::vector<DeviceInfo> all, std::string noDevice) {
  // Before any job runs (they wait for this): the store is the job thread's from here on.
  if (store_)
    for (const int d : ordinals_)
      if (static_cast<std::size_t>(d) < all.size())
        store_->upsertDevice(all[static_cast<std::size_t>(d)]);
  devices_ = std::move(all);
  noDevice_ = std::move(noDevice);
  jobs_.open();
}

void PoolJobs::execute(const protocol::Request& request, const std::atomic<bool>& cancel) {
  try {
    if (devices_.empty()) throw Error(ErrorKind::NoDevice, noDevice_);
    if (!pool_) {
      const PoolGpus gpus{ordinals_, devices_};
      pool_ = std::make_unique<DevicePool>(gpus.commands(host_), ordinals_, gpus.ceilings(store_));
    }
    if (request.type() == protocol::Type::Tune)
      tune(request, cancel);
    else
      runPoints(request, cancel);
  } catch (const Error& error) {
    if (error.kind() == ErrorKind::Cancelled)
      send_({request.id, protocol::Done{0, true}});
    else
      send_({request.id, protocol::Failure::of(error)});
  }
}

void PoolJobs::runPoints(const protocol::Request& request, const std::atomic<bool>& cancel) {
  const protocol::Kernel& kernel = *request.kernel();
  const auto variant = variantFor(kernel);
  const auto* sweep = std::get_if<protocol::SweepRequest>(&request.body);
  const MeasureSettings& settings = *request.options();
  const std::vector<std::string> tags = jobOptionsOf(settings).tags;
  const std::vector<ParamSet> points =
      sweep ? expandFor(*variant, kernel.params, sweep->axes)
            : std::vector<ParamSet>{resolveFor(*variant, kernel.params)};
  std::vector<RawParams> raw;
  for (const auto& point : points) raw.emplace_back(point.values().begin(), point.values().end());

  const std::string& id = request.id;
  const VariantInfo& info = variant->info();
  std::optional<std::int64_t> sweepId;
  std::size_t done = 0;
  PoolEvents events;
  events.result = [&](std::size_t index, int device, const RunResult& run) {
    std::optional<std::int64_t> runId;
    if (store_) {
      if (sweep && !sweepId)
        sweepId = store_->createSweep(info.family, info.name, toJson(ParamSet(kernel.params)),
                                      sweep->axes);
      runId = store_->insertRun(run, sweepId, tags);
    }
    send_({id, protocol::Result{index, run, runId}});
    send_({id, protocol::Progress{++done, points.size(), 0,
                                  points[index].toText() + " on GPU " + std::to_string(device)}});
  };
  const auto say = [&](const std::string& sentence) {
    send_({id, protocol::Progress{done, points.size(), 0, sentence}});
  };
  events.failed = [&](std::size_t index, int device, const std::string& sentence) {
    say(points[index].toText() + " on GPU " + std::to_string(device) + ": " + sentence);
  };
  events.workerEnded = [&](int, const std::string& sentence) {
    say(sentence + "; the other workers go on");
  };
  try {
    pool_->run(kernel, raw, settings, &cancel, events);
  } catch (const Error& error) {
    if (error.kind() != ErrorKind::Cancelled) throw;
    send_({id, protocol::Done{done, true}});
    return;
  }
  send_({id, protocol::Done{done, false}});
}

void PoolJobs::tune(const protocol::Request& job, const std::atomic<bool>& cancel) {
  const auto& request = std::get<protocol::TuneRequest>(job.body);
  const std::string& id = job.id;
  GpuTuning tuning(variantFor(request.kernel), request.kernel.params, request.tune,
                   jobOptionsOf(request.options));
  const TuneSpace& space = tuning.space();
  const std::size_t total = tuning.evaluationsAtMost();
  const DeviceInfo& first = devices_.at(static_cast<std::size_t>(ordinals_.front()));
  std::size_t fresh = 0;
  const TuneReport report = tuneOnPool(
      tuning, *pool_, ordinals_.size(), first, request.kernel, request.options, store_, &cancel,
      [&](const TuneOutcome& sofar) {
        send_(
            {id, protocol::Evaluated{sofar.evaluations.size(), tuneEvaluationJson(space, sofar)}});
        send_({id, protocol::Progress{sofar.evaluations.size(), total, 0,
                                      tuneProgressText(space, sofar)}});
      },
      [&](const RunResult& run, std::optional<std::int64_t> runId) {
        send_({id, protocol::Result{fresh++, run, runId}});
      },
      [&](const std::string& sentence) {
        send_({id, protocol::Progress{0, total, 0, sentence}});
      });
  send_({id, protocol::Tuned{tuneReportJson(report)}});
  send_({id, protocol::Done{fresh, cancel.load()}});
}

}  // namespace kwb
