#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace kwb {

// `--slurm`: where a sweep or tuning goes as a job array, a task per share of its points.
struct SlurmOptions {
  bool use = false;
  std::string partition;  // sbatch --partition; empty: the cluster's default
  std::string gres;       // sbatch --gres, as gpu:1
  std::size_t tasks = 4;  // array tasks (fewer where there are fewer points)
  std::string time;       // sbatch --time, as 30:00; empty: the partition's limit
};

// The batch script of a job array of `tasks` tasks: each runs `command` in a shell with
// $SLURM_ARRAY_TASK_ID set, its output in folder/task-N.out.
std::string slurmScript(const std::string& name, std::size_t tasks, const std::string& folder,
                        const SlurmOptions& options, const std::string& command);

// A word for a POSIX shell: single-quoted where it needs quoting.
std::string shellWord(const std::string& word);

// What Slurm says of one task of the array.
struct TaskState {
  std::size_t task = 0;
  std::string state;     // PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT, ...
  std::string reason;    // why it waits or failed, where Slurm says
  std::string exitCode;  // "1:0" (status:signal), where it ended
};
// A state no task leaves: it has ended, well or not.
bool endedState(const std::string& state);

// sbatch --parsable's answer: the job id ("1234", or "1234;cluster").
std::string parseJobId(const std::string& sbatchOutput);
// `squeue -h -r -j ID -o "%K %T %r"`: pending ranges ("0-3", "4-7%2", "1,3") expanded.
std::vector<TaskState> parseSqueue(const std::string& output, std::size_t tasks);
// `scontrol -o show job ID`: a line per task (pending ones as a range).
std::vector<TaskState> parseScontrol(const std::string& output, std::size_t tasks);
// `sacct -n -P -X -j ID -o JobID,State,ExitCode,Reason`: "ID_N|STATE|X:Y|REASON" lines.
std::vector<TaskState> parseSacct(const std::string& output, std::size_t tasks);

}  // namespace kwb
