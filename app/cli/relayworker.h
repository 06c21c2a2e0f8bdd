#pragma once

#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "app/cli/slurmjob.h"

namespace kwb {

class RunStore;

// `kwb --host HOST worker` and `kwb --devices all worker`: serves the worker protocol on `in`
// and `out` by passing each request to the worker of the first of `ordinals` (on HOST
// through the user's ssh, or here) and each reply back, so that a client of a local worker (the
// GUI) runs its jobs there unchanged. With several GPUs, runs, sweeps and tunings share their
// points among a worker per GPU instead (PoolJobs); with --slurm, runs and sweeps go to Slurm as
// job arrays (SlurmJobs), `store` required. What the remote worker runs comes
// back here and is stored in `store` (when set) with the remote device, under sweeps of this
// history; results, evaluations and reports carry this history's run and sweep ids. A lost
// connection ends the relay with one sentence on `err` and what arrived kept.
int runRelay(std::istream& in, std::ostream& out, std::ostream& err, RunStore* store,
             const std::string& host, const std::vector<int>& ordinals, const SlurmOptions& slurm);

}  // namespace kwb
