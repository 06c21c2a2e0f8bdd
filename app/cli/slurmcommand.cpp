#include "app/cli/slurmcommand.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <thread>

#include "app/cli/exitcodes.h"
#include "app/cli/interruptscope.h"
#include "app/cli/tunejob.h"
#include "core/cuobjdump.h"
#include "core/format.h"
#include "core/jsoncodec.h"
#include "core/toolkitprogram.h"
#include "db/database.h"
#include "db/databasemerger.h"
#include "db/runstore.h"
#include "db/tunehistory.h"
#include "kernels/registry.h"
#include "kernels/user/uservariant.h"

namespace kwb {
namespace {

namespace fs = std::filesystem;

constexpr auto kPollInterval = std::chrono::milliseconds(1000);
// After scancel, this long for the tasks to end before the job is left to Slurm.
constexpr double kCancelSeconds = 120;

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

std::string run(const std::vector<std::string>& argv, int* status = nullptr) {
  const ProgramOutput o = runProgram(argv);
  if (status) *status = WIFEXITED(o.status) ? WEXITSTATUS(o.status) : -1;
  if (!status && !(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0)) {
    std::string said = o.err.empty() ? o.out : o.err;
    while (!said.empty() && said.back() == '\n') said.pop_back();
    throw Error(ErrorKind::Tool, argv[0] + " failed: " + said);
  }
  return o.out;
}

// The last line a task's kwb said of its end ("kwb: ..."), else its last line.
std::string lastWords(const std::string& path) {
  std::ifstream in(path);
  std::string line, last, said;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    last = line;
    if (line.rfind("kwb: ", 0) == 0) said = line;
  }
  return said.empty() ? last : said;
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string utcStamp() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y%m%dT%H%M%S", std::gmtime(&now));
  return text;
}

struct ArrayJob {
  std::string name;  // kwb-sweep, kwb-tune
  std::size_t tasks = 0;
  std::vector<std::string> args;  // the task's kwb arguments, without --db and --shard
  bool reports = false;           // each task writes its tuning's report
};

struct ArrayOutcome {
  std::string jobId;
  std::string folder;
  std::vector<TaskState> tasks;  // every task's end
  bool cancelled = false;
};

std::string taskFile(const std::string& folder, std::size_t task, const std::string& suffix) {
  return folder + "/task-" + std::to_string(task) + suffix;
}

// Every task's state: the queue's for those still in it, the accounting's (or the
// controller's) for those that ended.
std::vector<TaskState> taskStates(const std::string& jobId, std::size_t tasks) {
  std::map<std::size_t, TaskState> states;
  for (std::size_t t = 0; t < tasks; ++t) states[t] = {t, "", "", ""};
  int status = 0;
  const std::string queued = run({"squeue", "-h", "-r", "-j", jobId, "-o", "%K %T %r"}, &status);
  if (status == 0)
    for (auto& s : parseSqueue(queued, tasks)) states[s.task] = s;
  bool left = false;
  for (const auto& [t, s] : states) left = left || s.state.empty();
  if (left) {
    std::vector<TaskState> ended;
    const std::string accounted =
        run({"sacct", "-n", "-P", "-X", "-j", jobId, "-o", "JobID,State,ExitCode,Reason"}, &status);
    if (status == 0) ended = parseSacct(accounted, tasks);
    if (ended.empty()) {
      const std::string shown = run({"scontrol", "-o", "show", "job", jobId}, &status);
      if (status == 0) ended = parseScontrol(shown, tasks);
    }
    for (auto& s : ended)
      if (states[s.task].state.empty() || endedState(s.state)) states[s.task] = s;
  }
  std::vector<TaskState> out;
  for (auto& [t, s] : states) {
    // Out of the queue, and neither the accounting nor the controller knows it any more.
    if (s.state.empty() && status != 0) s.state = "ENDED";
    out.push_back(s);
  }
  return out;
}

std::string progressLine(const std::vector<TaskState>& states) {
  std::map<std::string, std::size_t> counts;
  for (const auto& s : states) ++counts[s.state.empty() ? "PENDING" : s.state];
  std::string line;
  for (const auto& [state, n] : counts)
    line += (line.empty() ? "" : ", ") + std::to_string(n) + " " + lower(state);
  return line;
}

ArrayOutcome runArray(CliContext& context, const std::string& historyPath, const ArrayJob& job,
                      const SlurmOptions& slurm) {
  ArrayOutcome outcome;
  outcome.folder = fs::absolute(historyPath + ".slurm/" + job.name + "-" + utcStamp() + "-" +
                                std::to_string(getpid()))
                       .string();
  fs::create_directories(outcome.folder);
  const char* override = std::getenv("KWB_SLURM_KWB");
  std::string command = override && *override ? override : shellWord(currentExecutable());
  const std::string id = "\"$SLURM_ARRAY_TASK_ID\"";
  command += " --db " + shellWord(outcome.folder + "/task-") + id + ".sqlite";
  for (const auto& a : job.args) command += " " + shellWord(a);
  command += " --shard " + id + "/" + std::to_string(job.tasks);
  if (job.reports) command += " --output " + shellWord(outcome.folder + "/task-") + id + ".json";
  const std::string script = outcome.folder + "/job.sh";
  std::ofstream(script) << slurmScript(job.name, job.tasks, outcome.folder, slurm, command);

  outcome.jobId = parseJobId(run({"sbatch", "--parsable", script}));
  if (outcome.jobId.empty()) throw Error(ErrorKind::Tool, "sbatch gave no job id");
  context.err << "submitted job array " << outcome.jobId << ": " << job.tasks << " tasks"
              << (slurm.partition.empty() ? "" : " on partition " + slurm.partition)
              << "; their logs and histories in " << outcome.folder << "\n";

  InterruptScope interrupts;
  std::string shown;
  std::optional<std::chrono::steady_clock::time_point> cancelledAt;
  while (true) {
    outcome.tasks = taskStates(outcome.jobId, job.tasks);
    const std::string line = progressLine(outcome.tasks);
    if (line != shown && !context.global.json)
      context.err << "job " << outcome.jobId << ": " << line << "\n";
    shown = line;
    if (std::all_of(outcome.tasks.begin(), outcome.tasks.end(),
                    [](const TaskState& s) { return endedState(s.state); }))
      break;
    if (InterruptScope::interrupted() && !cancelledAt) {
      context.err << "kwb: cancelling job " << outcome.jobId << " (scancel)\n";
      run({"scancel", outcome.jobId});
      cancelledAt = std::chrono::steady_clock::now();
      outcome.cancelled = true;
    }
    if (cancelledAt &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - *cancelledAt).count() >
            kCancelSeconds)
      break;
    std::this_thread::sleep_for(kPollInterval);
  }
  return outcome;
}

struct Merged {
  std::size_t runs = 0;
  std::optional<std::int64_t> sweepId;  // made where a task left a history
};

// Merges the tasks' histories into `store` as one sweep, made by newSweep.
Merged mergeTasks(RunStore& store, const ArrayOutcome& outcome,
                  const std::function<std::int64_t()>& newSweep) {
  Transaction transaction(store.database());
  Merged merged;
  for (const TaskState& task : outcome.tasks) {
    const std::string db = taskFile(outcome.folder, task.task, ".sqlite");
    if (!fs::exists(db)) continue;
    if (!merged.sweepId) merged.sweepId = newSweep();
    merged.runs += mergeDatabase(store, db, merged.sweepId).runs;
  }
  transaction.commit();
  return merged;
}

// The tasks that did not complete, a line each: Slurm's state, exit code and reason, and the
// task's last words. The exit status for them.
int reportTasks(CliContext& context, const ArrayOutcome& outcome, const Merged& merged,
                nlohmann::json& summary) {
  std::size_t failed = 0;
  nlohmann::json tasks = nlohmann::json::array();
  for (const TaskState& t : outcome.tasks) {
    const std::string said = lastWords(taskFile(outcome.folder, t.task, ".out"));
    tasks.push_back({{"task", t.task},
                     {"state", t.state},
                     {"exit_code", t.exitCode},
                     {"reason", t.reason},
                     {"said", said}});
    if (t.state == "COMPLETED") continue;
    ++failed;
    if (!context.global.json)
      context.err << "kwb: task " << t.task << " " << lower(t.state)
                  << (t.exitCode.empty() || t.exitCode == "0:0" ? "" : " (exit " + t.exitCode + ")")
                  << (t.reason.empty() ? "" : ", " + t.reason)
                  << (said.empty() ? "" : ": " + printable(said)) << "\n";
  }
  summary["job"] = outcome.jobId;
  summary["folder"] = outcome.folder;
  summary["tasks"] = tasks;
  summary["merged_runs"] = merged.runs;
  summary["sweep_id"] = merged.sweepId ? nlohmann::json(*merged.sweepId) : nlohmann::json(nullptr);
  if (!context.global.json)
    context.out << outcome.tasks.size() - failed << " of " << outcome.tasks.size()
                << " tasks completed; "
                << (merged.sweepId ? std::to_string(merged.runs) + " runs merged into sweep " +
                                         std::to_string(*merged.sweepId)
                                   : std::string("no task left runs to merge"))
                << "\n";
  if (outcome.cancelled) return kExitCancelled;
  return failed ? kExitFailed : kExitOk;
}

void refuseOthers(const MeasureCliOptions& o, const CliContext& context) {
  if (!context.global.host.empty() || !context.global.devices.empty() || !o.shardText.empty() ||
      context.global.noStore)
    throw Error(ErrorKind::Usage,
                "--slurm shares the points among its own tasks and stores them in the history: "
                "give it no --host, --devices, --shard or --no-store");
}

// Copies a kernel file into the job folder's parent, so that the tasks run the text submitted.
std::string kernelCopy(const MeasureCliOptions& o, const std::string& historyPath) {
  if (!o.isFile()) return {};
  const std::string folder = historyPath + ".slurm/kernels";
  fs::create_directories(folder);
  const protocol::Kernel k = o.kernel();
  const std::string copy =
      fs::absolute(folder + "/" + utcStamp() + "-" + fs::path(o.family).filename().string())
          .string();
  std::ofstream(copy) << k.source;
  return copy;
}

}  // namespace

int slurmSweep(CliContext& context, const std::vector<std::string>& args,
               const MeasureCliOptions& o, const std::vector<std::string>& axes,
               const SlurmOptions& slurm) {
  refuseOthers(o, context);
  const auto kernel = variantFor(o.kernel());
  const std::size_t points = expandFor(*kernel, o.rawParams(), axes).size();
  (void)o.jobOptions();  // its errors now, not in every task
  const auto store = context.openStore();
  ArrayJob job;
  job.name = "kwb-sweep";
  job.tasks = std::max<std::size_t>(1, std::min(slurm.tasks, points));
  job.args = taskArguments(args, o.isFile() ? o.family : "", kernelCopy(o, store->path()));
  const ArrayOutcome outcome = runArray(context, store->path(), job, slurm);
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
  const auto kernel = variantFor(o.kernel());
  const GpuTuning tuning(kernel, o.rawParams(), o, o.jobOptions());
  const std::size_t valid = tuning.space().validCount();
  const auto store = context.openStore();
  ArrayJob job;
  job.name = "kwb-tune";
  job.tasks = std::max<std::size_t>(1, std::min(slurm.tasks, valid));
  job.args = taskArguments(args, o.isFile() ? o.family : "", kernelCopy(o, store->path()));
  job.reports = true;
  const ArrayOutcome outcome = runArray(context, store->path(), job, slurm);
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
