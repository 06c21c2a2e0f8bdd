#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace kwb {

class RunStore;

struct MergeOutcome {
  std::size_t runs = 0;        // added
  std::size_t duplicates = 0;  // already in the target, skipped
  std::size_t devices = 0;     // in the source
};

// Adds every run of the history database at `sourcePath` to `target`, with its device, copy
// ceiling, sweep, samples, metrics, tags and notes: a workshop's attendees export their
// databases and one merged history compares their devices. A run already in the target (same
// device, start time, kernel, parameters and timing mode) is skipped, so merging twice adds
// nothing. The source is read from a copy (its write-ahead log included): an older schema is
// migrated there, never in place. Throws Error(Database) for a file that is missing, empty or not
// a history database. Inside a transaction of the caller's, a failure adds nothing. With
// intoSweep, the source's sweeps all become that one sweep of the target (the shares of one sweep
// that the tasks of a job array ran).
MergeOutcome mergeDatabase(RunStore& target, const std::string& sourcePath,
                           std::optional<std::int64_t> intoSweep = {});

struct RunResult;
// What makes two stored runs the same run: device, start time, kernel, parameters, timing mode.
std::string runIdentity(const RunResult& r);

}  // namespace kwb
