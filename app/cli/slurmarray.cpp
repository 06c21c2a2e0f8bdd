#include "app/cli/slurmarray.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "core/cuobjdump.h"
#include "core/error.h"
#include "core/toolkitprogram.h"
#include "db/database.h"
#include "db/databasemerger.h"
#include "db/runstore.h"

namespace kwb {
namespace {

namespace fs = std::filesystem;

constexpr auto kPollInterval = std::chrono::milliseconds(1000);
// After scancel, this long for the tasks to end before the job is left to Slurm.
constexpr double kCancelSeconds = 120;

std::string run(const std::vector<std::string>& argv, int* status = nullptr) {
  const ProgramOutput o = runProgram(argv);
  if (status) *status = WIFEXITED(o.status) ? WEXITSTATUS(o.status) : -1;
  if (!status && !(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0)) {
    // Its last line says why ("sbatch: error: Batch job submission failed: ...").
    std::string said = o.err.empty() ? o.out : o.err;
    while (!said.empty() && said.back() == '\n') said.pop_back();
    said.erase(0, said.rfind('\n') + 1);
    throw Error(ErrorKind::Tool, argv[0] + " failed: " + said);
  }
  return o.out;
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

}  // namespace

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

std::string copyKernelFile(const std::string& historyPath, const protocol::Kernel& kernel) {
  if (!kernel.isFile()) return {};
  const std::string folder = historyPath + ".slurm/kernels";
  fs::create_directories(folder);
  const std::string copy =
      fs::absolute(folder + "/" + utcStamp() + "-" + fs::path(kernel.path).filename().string())
          .string();
  std::ofstream(copy) << kernel.source;
  return copy;
}

std::string taskFile(const std::string& folder, std::size_t task, const std::string& suffix) {
  return folder + "/task-" + std::to_string(task) + suffix;
}

ArrayOutcome runArray(const std::string& historyPath, const ArrayJob& job,
                      const SlurmOptions& slurm, const std::atomic<bool>* cancel,
                      const std::function<void(const std::string&)>& say) {
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
  say("submitted job array " + outcome.jobId + ": " + std::to_string(job.tasks) + " tasks" +
      (slurm.partition.empty() ? "" : " on partition " + slurm.partition) +
      "; their logs and histories in " + outcome.folder);
  std::string shown;
  std::optional<std::chrono::steady_clock::time_point> cancelledAt;
  while (true) {
    outcome.tasks = taskStates(outcome.jobId, job.tasks);
    const std::string line = progressLine(outcome.tasks);
    if (line != shown) say("job " + outcome.jobId + ": " + line);
    shown = line;
    if (std::all_of(outcome.tasks.begin(), outcome.tasks.end(),
                    [](const TaskState& s) { return endedState(s.state); }))
      break;
    if (cancel && *cancel && !cancelledAt) {
      say("cancelling job " + outcome.jobId + " (scancel)");
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

std::vector<std::string> unfinishedTasks(const ArrayOutcome& outcome) {
  std::vector<std::string> out;
  for (const TaskState& t : outcome.tasks) {
    if (t.state == "COMPLETED") continue;
    const std::string said = lastWords(taskFile(outcome.folder, t.task, ".out"));
    out.push_back("task " + std::to_string(t.task) + " " + lower(t.state) +
                  (t.exitCode.empty() || t.exitCode == "0:0" ? "" : " (exit " + t.exitCode + ")") +
                  (t.reason.empty() ? "" : ", " + t.reason) + (said.empty() ? "" : ": " + said));
  }
  return out;
}

}  // namespace kwb
