#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/slurmjob.h"
#include "core/protocol.h"

namespace kwb {

class RunStore;

// A job array whose tasks each run `kwb ... --shard I/N` into a history of their own.
struct ArrayJob {
  std::string name;  // kwb-sweep, kwb-tune
  std::size_t tasks = 0;
  std::vector<std::string> args;  // the task's kwb arguments, without --db and --shard
  bool reports = false;           // each task writes its tuning's report (--output)
};

struct ArrayOutcome {
  std::string jobId;
  std::string folder;            // the job's: job.sh, task-I.out, task-I.sqlite, task-I.json
  std::vector<TaskState> tasks;  // every task's end
  bool cancelled = false;
};

// Submits the array from a job folder beside the history (HISTORY.slurm/NAME-TIME-PID) and waits
// for its tasks to end, polling squeue (sacct or scontrol for the ended ones); what happens is
// said through `say` ("submitted job array 12: ...", "job 12: 1 pending, 2 running", ...). When
// *cancel turns true the array is cancelled with scancel. Error(Tool) where sbatch fails.
ArrayOutcome runArray(const std::string& historyPath, const ArrayJob& job,
                      const SlurmOptions& slurm, const std::atomic<bool>* cancel,
                      const std::function<void(const std::string&)>& say);

struct Merged {
  std::size_t runs = 0;
  std::optional<std::int64_t> sweepId;  // made where a task left a history
};
// Merges the tasks' histories into `store` as one sweep, made by newSweep.
Merged mergeTasks(RunStore& store, const ArrayOutcome& outcome,
                  const std::function<std::int64_t()>& newSweep);

// A sentence for each task that did not complete: Slurm's state, exit code and reason, and the
// task's last words.
std::vector<std::string> unfinishedTasks(const ArrayOutcome& outcome);

// A kernel file's text copied beside the history (HISTORY.slurm/kernels/TIME-NAME), so that the
// tasks run the text submitted; the copy's absolute path, empty for a built-in variant.
std::string copyKernelFile(const std::string& historyPath, const protocol::Kernel& kernel);

std::string taskFile(const std::string& folder, std::size_t task, const std::string& suffix);
// The last line a task's kwb said of its end ("kwb: ..."), else its last line.
std::string lastWords(const std::string& path);
std::string utcStamp();               // 20261124T183259, UTC
std::string lower(std::string text);  // "FAILED" -> "failed"

}  // namespace kwb
