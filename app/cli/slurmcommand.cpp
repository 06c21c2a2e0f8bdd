#include "app/cli/slurmcommand.h"

#include <fstream>
#include <set>

#include "app/cli/exitcodes.h"
#include "app/cli/interruptscope.h"
#include "app/cli/slurmarray.h"
#include "app/cli/tunejob.h"
#include "core/format.h"
#include "core/jsoncodec.h"
#include "db/runstore.h"
#include "db/tunehistory.h"
#include "kernels/registry.h"
#include "kernels/user/uservariant.h"

namespace kwb {
namespace {

// Options that are the orchestrator's, not the tasks': flags, and options with a value.
const std::set<std::string> kOwnFlags{"--slurm", "--json", "--no-store"};
const std::set<std::string> kOwnValued{"--partition", "--gres",  "--tasks",  "--time",
                                       "--db",        "--shard", "--output", "--header"};

// The command line of a task: the user's, without the orchestrator's options, with the kernel
// file's copy in the job folder in place of the file.
std::vector<std::string> taskArguments(const std::vector<std::string>& args,
                                       const std::string& kernelFile,
                                       const std::string& kernelCopy) {
  std::vector<std::string> out;
  bool replaced = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const std::string name = a.substr(0, a.find('='));
    if (kOwnFlags.count(a)) continue;
    if (kOwnValued.count(name)) {
      if (name == a) ++i;  // its value follows
      continue;
    }
    if (!replaced && !kernelFile.empty() && a == kernelFile) {
      out.push_back(kernelCopy);
      replaced = true;
      continue;
    }
    out.push_back(a);
  }
  return out;
}

// The tasks that did not complete, a line each: Slurm's state, exit code and reason, and the
// task's last words. The exit status for them.
int reportTasks(CliContext& context, const ArrayOutcome& outcome, const Merged& merged,
                nlohmann::json& summary) {
  nlohmann::json tasks = nlohmann::json::array();
  for (const TaskState& t : outcome.tasks)
    tasks.push_back({{"task", t.task},
                     {"state", t.state},
                     {"exit_code", t.exitCode},
                     {"reason", t.reason},
                     {"said", lastWords(taskFile(outcome.folder, t.task, ".out"))}});
  const std::vector<std::string> unfinished = unfinishedTasks(outcome);
  if (!context.global.json)
    for (const auto& sentence : unfinished) context.err << "kwb: " << printable(sentence) << "\n";
  summary["job"] = outcome.jobId;
  summary["folder"] = outcome.folder;
  summary["tasks"] = tasks;
  summary["merged_runs"] = merged.runs;
  summary["sweep_id"] = merged.sweepId ? nlohmann::json(*merged.sweepId) : nlohmann::json(nullptr);
  if (!context.global.json)
    context.out << outcome.tasks.size() - unfinished.size() << " of " << outcome.tasks.size()
                << " tasks completed; "
                << (merged.sweepId ? std::to_string(merged.runs) + " runs merged into sweep " +
                                         std::to_string(*merged.sweepId)
                                   : std::string("no task left runs to merge"))
                << "\n";
  if (outcome.cancelled) return kExitCancelled;
  return unfinished.empty() ? kExitOk : kExitFailed;
}

// The array run from the command line: its progress on stderr, Ctrl-C cancelling it.
ArrayOutcome runArrayHere(CliContext& context, const std::string& historyPath, const ArrayJob& job,
                          const SlurmOptions& slurm) {
  InterruptScope interrupts;
  return runArray(
      historyPath, job, slurm, &InterruptScope::interrupted(), [&](const std::string& line) {
        if (!context.global.json || line.rfind("cancelling", 0) == 0)
          context.err << (line.rfind("cancelling", 0) == 0 ? "kwb: " : "") << line << "\n";
      });
}

void refuseOthers(const MeasureCliOptions& o, const CliContext& context) {
  if (!context.global.host.empty() || !context.global.devices.empty() || !o.shardText.empty() ||
      context.global.noStore)
    throw Error(ErrorKind::Usage,
                "--slurm shares the points among its own tasks and stores them in the history: "
                "give it no --host, --devices, --shard or --no-store");
}

}  // namespace

int slurmSweep(CliContext& context, const std::vector<std::string>& args,
               const MeasureCliOptions& o, const std::vector<std::string>& axes,
               const SlurmOptions& slurm) {
  refuseOthers(o, context);
  const protocol::Kernel what = o.kernel();
  const auto kernel = variantFor(what);
  const std::size_t points = expandFor(*kernel, o.rawParams(), axes).size();
  (void)o.jobOptions();  // its errors now, not in every task
  const auto store = context.openStore();
  ArrayJob job;
  job.name = "kwb-sweep";
  job.tasks = std::max<std::size_t>(1, std::min(slurm.tasks, points));
  job.args = taskArguments(args, o.isFile() ? o.family : "", copyKernelFile(store->path(), what));
  const ArrayOutcome outcome = runArrayHere(context, store->path(), job, slurm);
  const VariantInfo& info = kernel->info();
  const Merged merged = mergeTasks(*store, outcome, [&] {
    return store->createSweep(info.family, info.name, toJson(ParamSet(o.rawParams())), axes);
  });
  nlohmann::json summary;
  const int status = reportTasks(context, outcome, merged, summary);
  if (context.global.json) context.out << summary.dump(2) << "\n";
  return status;
}

int slurmTune(CliContext& context, const std::vector<std::string>& args, const TuneCliOptions& o,
              const SlurmOptions& slurm) {
  refuseOthers(o, context);
  if (o.replay || !o.output.empty() || !o.header.empty())
    throw Error(ErrorKind::Usage,
                "--slurm tunes on the cluster's GPUs: give it no --replay, --output or --header");
  const protocol::Kernel what = o.kernel();
  const auto kernel = variantFor(what);
  const GpuTuning tuning(kernel, o.rawParams(), o, o.jobOptions());
  const std::size_t valid = tuning.space().validCount();
  const auto store = context.openStore();
  ArrayJob job;
  job.name = "kwb-tune";
  job.tasks = std::max<std::size_t>(1, std::min(slurm.tasks, valid));
  job.args = taskArguments(args, o.isFile() ? o.family : "", copyKernelFile(store->path(), what));
  job.reports = true;
  const ArrayOutcome outcome = runArrayHere(context, store->path(), job, slurm);
  const VariantInfo& info = kernel->info();
  const Merged merged = mergeTasks(*store, outcome, [&] {
    return store->createSweep(info.family, info.name, toJson(ParamSet(o.rawParams())),
                              tuneSweepAxes(tuning.space(), o.strategy, o.objective));
  });

  // Each task's best, and the best of them by the objective.
  nlohmann::json summary;
  nlohmann::json bests = nlohmann::json::array();
  const auto objective = parseTuneObjective(o.objective).value_or(TuneObjective::Time);
  const auto scoreOf = [objective](const nlohmann::json& f) {
    switch (objective) {
      case TuneObjective::Bandwidth: return -f.value("bandwidth", 0.0);
      case TuneObjective::Energy:
        return f["energy_j"].is_number() ? f["energy_j"].get<double>() : 1e300;
      case TuneObjective::TimeAndEnergy:
        return f["energy_j"].is_number() ? f["energy_j"].get<double>() * f.value("median_s", 0.0)
                                         : 1e300;
      default: return f.value("median_s", 1e300);
    }
  };
  std::optional<std::size_t> best;
  for (const TaskState& t : outcome.tasks) {
    std::ifstream file(taskFile(outcome.folder, t.task, ".json"));
    if (!file) continue;
    const nlohmann::json report = nlohmann::json::parse(file, nullptr, false);
    if (report.is_discarded() || report["finalists"].empty()) continue;
    nlohmann::json f = report["finalists"][0];
    f["task"] = t.task;
    bests.push_back(f);
    if (!best || scoreOf(f) < scoreOf(bests[*best])) best = bests.size() - 1;
  }
  summary["bests"] = bests;
  if (!context.global.json) {
    for (const auto& f : bests)
      context.out << "task " << f["task"].get<std::size_t>() << "'s best: " << f["params"].dump()
                  << ", " << formatSeconds(f.value("median_s", 0.0)) << "\n";
    if (best)
      context.out << "best of all: " << bests[*best]["params"].dump() << ", "
                  << formatSeconds(bests[*best].value("median_s", 0.0))
                  << " (compare them again: kwb tune --replay " << *merged.sweepId << ")\n";
  }
  const int status = reportTasks(context, outcome, merged, summary);
  if (context.global.json) context.out << summary.dump(2) << "\n";
  return status;
}

}  // namespace kwb
