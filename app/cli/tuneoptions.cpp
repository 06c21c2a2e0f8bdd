// `kwb tune`'s options.
#include <limits>

#include "app/cli/clicontext.h"

namespace kwb {

void addTuneOptions(CLI::App& command, TuneCliOptions& o) {
  o.budget = 0.2;  // per point: a tuning measures many
  addMeasureOptions(command, o, "--point-budget", false);
  command
      .add_option("-s,--tune", o.axes,
                  "a tuned parameter: name=v1,v2,... | name=start:end[:step] | name=start:end:*k; "
                  "repeat for each")
      ->allow_extra_args(false);
  command
      .add_option("--restrict", o.restrictions,
                  "a rule points must keep, over parameter values (block_size * unroll <= 4096); "
                  "repeat for more")
      ->allow_extra_args(false)
      ->check(text(kLongestText));
  command
      .add_option("--strategy", o.strategy,
                  "exhaustive, random, annealing, genetic or model (dlib's global optimizer)")
      ->capture_default_str();
  command
      .add_option("--objective", o.objective,
                  "time (median), bandwidth, energy (per call; needs NVML) or time,energy")
      ->capture_default_str();
  command
      .add_option("--budget", o.searchBudget,
                  "when to stop: N evaluations, or a time such as 90s or 3m (default: when "
                  "the space is done)")
      ->check(text(32));
  command
      .add_option("--patience", o.patience,
                  "stop after this many evaluations without a better point")
      ->check(wholeNumber(1, kMostRuns));
  command
      .add_option("--confirm", o.confirm,
                  "the best this many are measured again, longer, and compared (0: none)")
      ->capture_default_str()
      ->check(wholeNumber(0, 100));
  command.add_option("--search-seed", o.searchSeed, "seed of the strategy's random choices")
      ->capture_default_str()
      ->check(wholeNumber(0, std::numeric_limits<std::uint64_t>::max()));
  command.add_flag("--rerun", o.rerun,
                   "measure points again even where the history has them (same device, binary, "
                   "source)");
  command
      .add_option("--replay", o.replay,
                  "search a stored sweep's runs instead of the GPU (its id, from `kwb history`)")
      ->check(wholeNumber(1, std::numeric_limits<std::int64_t>::max()));
  command.add_option("-o,--output", o.output, "write the result as JSON to this file")
      ->check(text(kLongestPath));
  command
      .add_option("--header", o.header,
                  "write the best configuration as a C++ header of constants to this file")
      ->check(text(kLongestPath));
}

}  // namespace kwb
