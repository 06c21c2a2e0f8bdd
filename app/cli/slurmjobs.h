#pragma once

#include <atomic>
#include <string>

#include "app/cli/jobthread.h"
#include "app/cli/slurmjob.h"

namespace kwb {

class RunStore;

// The runs and sweeps of a relay that sends them to Slurm (`kwb --slurm ... worker`, as the window
// starts it when Settings say so): each becomes a job array of `kwb sweep ... --shard I/N`
// written from the request, its progress said as the worker's progress; once the array has ended
// the tasks' histories are merged into `store` as one sweep, every run merged is replied as a
// result, and the tasks that did not complete are said. A cancel request cancels the array
// (scancel). Tunings are refused: `kwb tune --slurm` runs them.
class SlurmJobs {
 public:
  SlurmJobs(RunStore& store, SlurmOptions slurm, JobThread::Send send);
  void submit(protocol::Request request) { jobs_.submit(std::move(request)); }
  bool cancel(const std::string& id) { return jobs_.cancel(id); }

 private:
  void execute(const protocol::Request& request, const std::atomic<bool>& cancel);

  RunStore& store_;
  SlurmOptions slurm_;
  JobThread::Send send_;
  JobThread jobs_;  // last: its thread ends before the rest goes
};

// The `kwb` arguments that run a run or sweep request's points (`sweep`, a run as a sweep of its
// one point), the kernel file at `kernelPath` where the request carries one.
std::vector<std::string> sweepArguments(const protocol::Request& request,
                                        const std::string& kernelPath);

}  // namespace kwb
