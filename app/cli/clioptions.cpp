#include "app/cli/clicontext.h"
#include "core/error.h"
#include "core/timeformat.h"
#include "db/defaultpath.h"
#include "db/runstore.h"

namespace kwb {

std::unique_ptr<RunStore> CliContext::openStore() const {
  return std::make_unique<RunStore>(global.db.empty() ? defaultDatabasePath() : global.db);
}

RawParams MeasureCliOptions::rawParams() const {
  RawParams raw;
  for (const auto& item : params) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw Error(ErrorKind::Usage, "parameter '" + item + "' must look like name=value");
    const std::string name = item.substr(0, eq);
    if (raw.count(name)) throw paramError(name, "is given twice");
    raw[name] = item.substr(eq + 1);
  }
  return raw;
}

JobOptions MeasureCliOptions::jobOptions() const {
  JobOptions job;
  auto parsedMode = parseTimingMode(mode);
  if (!parsedMode)
    throw Error(ErrorKind::Usage, "--mode '" + mode + "' is not allowed; allowed: cold, hot");
  if (!(budget > 0) || budget > 3600)
    throw Error(ErrorKind::Usage, "--budget must be above 0 and at most 3600 seconds");
  if (minSamples < 10) throw Error(ErrorKind::Usage, "--min-samples must be at least 10");
  if (maxSamples < minSamples)
    throw Error(ErrorKind::Usage, "--max-samples must be at least --min-samples");
  if (!(targetRsd > 0)) throw Error(ErrorKind::Usage, "--target-rsd must be above 0");
  job.timing = {*parsedMode, minSamples, maxSamples, targetRsd, budget};
  job.seed = seed;
  job.verifyOnly = verifyOnly;
  job.metrics = planMetrics(metrics);
  job.tags = tags;
  return job;
}

void addKernelOptions(CLI::App& command, MeasureCliOptions& o) {
  command.add_option("family", o.family, "kernel family (see `kwb list`)")->required();
  command.add_option("variant", o.variant, "variant of the family")->required();
  command.add_option("params", o.params, "parameters as name=value (same as -p)");
  command.add_option("-p,--param", o.params, "a parameter, name=value; repeat for more")
      ->allow_extra_args(false);
}

void addMeasureOptions(CLI::App& command, MeasureCliOptions& o) {
  addKernelOptions(command, o);
  command.add_option("--mode", o.mode, "cold: L2 flushed before each sample; hot: back to back")
      ->capture_default_str();
  command.add_option("--budget", o.budget, "seconds of timing per run at most")
      ->capture_default_str();
  command.add_option("--min-samples", o.minSamples, "samples per run at least (>= 10)")
      ->capture_default_str();
  command.add_option("--max-samples", o.maxSamples, "samples per run at most")
      ->capture_default_str();
  command.add_option("--target-rsd", o.targetRsd, "stop early once stddev / mean falls below this")
      ->capture_default_str();
  command.add_option("--seed", o.seed, "seed of the random inputs")->capture_default_str();
  command.add_flag("--verify-only", o.verifyOnly,
                   "check the output against the CPU reference, skip timing");
  command.add_option("--metrics", o.metrics,
                     "hardware metrics read after timing: sets (memory, occupancy, coalescing, "
                     "shared, divergence, compute, all) and Nsight Compute metric names, comma "
                     "separated");
}

HistoryFilter FilterCliOptions::filter() const {
  const auto now = nowUnixMs();
  HistoryFilter f;
  f.family = family;
  f.variant = variant;
  f.dtype = dtype;
  f.device = device;
  f.status = status;
  f.tag = tag;
  f.text = text;
  f.limit = limit;
  for (auto [value, target, name] :
       {std::tuple{&since, &f.since, "--since"}, std::tuple{&until, &f.until, "--until"}}) {
    if (value->empty()) continue;
    *target = parseTimestamp(*value, now);
    if (!*target)
      throw Error(ErrorKind::Usage, std::string(name) + " '" + *value +
                                        "' is not a time; use 2026-11-21, 2026-11-21T10:00 or "
                                        "an age such as 30m, 12h, 7d");
  }
  return f;
}

void addFilterOptions(CLI::App& command, FilterCliOptions& o, std::size_t defaultLimit) {
  o.limit = defaultLimit;
  command.add_option("--family", o.family, "only this kernel family");
  command.add_option("--variant", o.variant, "only this variant");
  command.add_option("--dtype", o.dtype, "only this element type");
  command.add_option("--device", o.device, "only this device (UUID or part of its name)");
  command.add_option("--status", o.status, "only runs with this status (ok, failed, ...)");
  command.add_option("--tag", o.tag, "only runs with this tag");
  command.add_option("--text", o.text,
                     "only runs whose kernel, parameters, error, tags or notes contain this");
  command.add_option("--since", o.since, "from this time on (2026-11-21, 2026-11-21T10:00, 7d)");
  command.add_option("--until", o.until, "before this time");
  command.add_option("--limit", o.limit, "at most this many runs, newest first (0: all)")
      ->capture_default_str();
}

}  // namespace kwb
