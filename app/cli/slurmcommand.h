#pragma once

#include <string>
#include <vector>

#include "app/cli/clicontext.h"
#include "app/cli/slurmjob.h"

namespace kwb {

// `kwb sweep ... --slurm` and `kwb tune ... --slurm`: the points are shared among the tasks of a
// job array (sbatch), each running this kwb command with --shard into a history of its own in a
// job folder beside the user's history; progress comes from squeue, the tasks' end from sacct
// (or scontrol where there is no accounting); Ctrl-C cancels the array (scancel). At the end the
// tasks' histories are merged into the user's as one sweep, and the tasks that failed are listed
// with Slurm's reason and their last words. `args` is the command line as given.
int slurmSweep(CliContext& context, const std::vector<std::string>& args,
               const MeasureCliOptions& options, const std::vector<std::string>& axes,
               const SlurmOptions& slurm);
int slurmTune(CliContext& context, const std::vector<std::string>& args,
              const TuneCliOptions& options, const SlurmOptions& slurm);

}  // namespace kwb
