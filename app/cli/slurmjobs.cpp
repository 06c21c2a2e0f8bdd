#include "app/cli/slurmjobs.h"

#include <algorithm>
#include <sstream>

#include "app/cli/slurmarray.h"
#include "core/jsoncodec.h"
#include "db/historyfilter.h"
#include "db/runstore.h"
#include "kernels/registry.h"
#include "kernels/user/uservariant.h"

namespace kwb {
namespace {

std::string number(double value) {
  std::ostringstream out;
  out.precision(17);
  out << value;
  return out.str();
}

}  // namespace

std::vector<std::string> sweepArguments(const protocol::Request& request,
                                        const std::string& kernelPath) {
  const protocol::Kernel& kernel = *request.kernel();
  const auto* sweep = std::get_if<protocol::SweepRequest>(&request.body);
  const MeasureSettings& o = *request.options();
  std::vector<std::string> args{"sweep"};
  if (kernel.isFile()) {
    args.push_back(kernelPath);
  } else {
    args.push_back(kernel.family);
    args.push_back(kernel.variant);
  }
  RawParams params = kernel.params;
  std::vector<std::string> axes;
  if (sweep) {
    axes = sweep->axes;
  } else {
    // A run is the sweep of its one point, over its size.
    const auto variant = variantFor(kernel);
    const std::string& size = variant->info().sizeParam;
    axes.push_back(size + "=" + resolveFor(*variant, kernel.params).get(size));
    params.erase(size);
  }
  for (const auto& [name, value] : params) args.push_back(name + "=" + value);
  for (const auto& axis : axes) args.insert(args.end(), {"-s", axis});
  args.insert(args.end(),
              {"--mode", o.mode, "--budget", number(o.budget), "--min-samples",
               std::to_string(o.minSamples), "--max-samples", std::to_string(o.maxSamples),
               "--target-rsd", number(o.targetRsd), "--seed", std::to_string(o.seed),
               "--hang-after", number(o.hangSeconds)});
  if (o.verifyOnly) args.push_back("--verify-only");
  if (!o.metrics.empty()) args.insert(args.end(), {"--metrics", o.metrics});
  return args;
}

SlurmJobs::SlurmJobs(RunStore& store, SlurmOptions slurm, JobThread::Send send)
    : store_(store),
      slurm_(std::move(slurm)),
      send_(send),
      jobs_(
          [this](QueuedJob& job) {
            auto& queued = static_cast<RequestJob&>(job);
            execute(queued.request, queued.cancel);
          },
          send) {
  jobs_.open();
}

void SlurmJobs::execute(const protocol::Request& request, const std::atomic<bool>& cancel) {
  const std::string& id = request.id;
  const auto say = [&](const std::string& line) { send_({id, protocol::Progress{0, 0, 0, line}}); };
  try {
    if (request.type() == protocol::Type::Tune)
      throw Error(ErrorKind::Usage,
                  "a tuning from the window does not go to Slurm: run kwb tune ... --slurm");
    const protocol::Kernel& kernel = *request.kernel();
    const auto variant = variantFor(kernel);
    const auto* sweep = std::get_if<protocol::SweepRequest>(&request.body);
    const std::size_t points = sweep ? expandFor(*variant, kernel.params, sweep->axes).size() : 1;
    ArrayJob job;
    job.name = "kwb-sweep";
    job.tasks = std::max<std::size_t>(1, std::min(slurm_.tasks, points));
    job.args = sweepArguments(request, copyKernelFile(store_.path(), kernel));
    const ArrayOutcome outcome = runArray(store_.path(), job, slurm_, &cancel, say);
    const VariantInfo& info = variant->info();
    const Merged merged = mergeTasks(store_, outcome, [&] {
      return store_.createSweep(info.family, info.name, toJson(ParamSet(kernel.params)),
                                sweep ? sweep->axes : std::vector<std::string>{});
    });
    const std::vector<std::string> unfinished = unfinishedTasks(outcome);
    for (const auto& sentence : unfinished) say(sentence);
    std::size_t index = 0;
    if (merged.sweepId) {
      HistoryFilter filter;
      filter.sweepId = merged.sweepId;
      filter.newestFirst = false;
      filter.limit = 0;
      for (const RunRecord& r : store_.query(filter)) {
        // The request's tags (a lesson's) go on the merged runs, as a worker stores them.
        for (const auto& tag : request.options()->tags) store_.addTag(r.id, tag);
        if (const auto whole = store_.run(r.id))
          send_({id, protocol::Result{index++, whole->result, r.id}});
      }
    }
    if (index == 0 && !outcome.cancelled && !unfinished.empty())
      throw Error(ErrorKind::Internal,
                  "job " + outcome.jobId + " ended without runs: " + unfinished.front());
    send_({id, protocol::Done{index, outcome.cancelled}});
  } catch (const Error& error) {
    send_({id, protocol::Failure::of(error)});
  }
}

}  // namespace kwb
