#include "app/cli/clicontext.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <tuple>
#include "core/error.h"
#include "core/timeformat.h"
#include "db/defaultpath.h"
#include "db/runstore.h"
#include "kernels/user/kernelfile.h"

namespace kwb {

CLI::Validator wholeNumber(std::uint64_t least, std::uint64_t most) {
  return CLI::Validator(
      [least, most](std::string& value) -> std::string {
        std::uint64_t number = 0;
        const auto [end, error] =
            std::from_chars(value.data(), value.data() + value.size(), number);
        const bool digits =
            !value.empty() && value.find_first_not_of("0123456789") == std::string::npos;
        if (!digits || error != std::errc() || end != value.data() + value.size() ||
            number < least || number > most)
          return "'" + value + "' is not allowed; allowed: a whole number from " +
                 std::to_string(least) + " to " + std::to_string(most);
        return {};
      },
      "", "whole number");
}

CLI::Validator positiveNumber(double most) {
  return CLI::Validator(
      [most](std::string& value) -> std::string {
        char* end = nullptr;
        const double number = std::strtod(value.c_str(), &end);
        if (value.empty() || *end != '\0' || !std::isfinite(number) || number <= 0 || number > most)
          return "'" + value + "' is not allowed; allowed: a number above 0, at most " +
                 std::to_string(static_cast<std::int64_t>(most));
        return {};
      },
      "", "positive number");
}

CLI::Validator text(std::size_t longest) {
  return CLI::Validator(
      [longest](std::string& value) -> std::string {
        if (value.empty()) return "an empty value is not allowed; leave the option out instead";
        if (value.size() > longest)
          return "a value of " + std::to_string(value.size()) +
                 " characters is not allowed; allowed: at most " + std::to_string(longest);
        return {};
      },
      "", "text");
}

std::unique_ptr<RunStore> CliContext::openStore() const {
  return std::make_unique<RunStore>(global.db.empty() ? defaultDatabasePath() : global.db);
}

bool MeasureCliOptions::isFile() const {
  return looksLikeKernelFile(family);
}

protocol::Kernel MeasureCliOptions::kernel() const {
  if (!isFile()) {
    if (variant.empty())
      throw Error(ErrorKind::Usage, "a variant is required after the family '" + family +
                                        "' (see `kwb list " + family +
                                        "`), or give a kernel "
                                        "file (FILE.cu)");
    return {family, variant, rawParams()};
  }
  const KernelFile file = readKernelFile(family);
  return {{}, {}, rawParams(), file.path, file.source};
}

RawParams MeasureCliOptions::rawParams() const {
  std::vector<std::string> items = params;
  // After a kernel file, the second word is already a parameter.
  if (isFile() && !variant.empty()) items.insert(items.begin(), variant);
  items.insert(items.end(), optionParams.begin(), optionParams.end());
  return rawParamsOf(items);
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
  if (!(hangSeconds > 0) || hangSeconds > 86400)
    throw Error(ErrorKind::Usage, "--hang-after must be above 0 and at most 86400 seconds");
  job.timing = {*parsedMode, minSamples, maxSamples, targetRsd, budget};
  job.seed = seed;
  job.hangSeconds = hangSeconds;
  job.verifyOnly = verifyOnly;
  job.metrics = planMetrics(metrics);
  job.tags = tags;
  job.copyCeiling = copyCeiling;
  return job;
}

JobOptions jobOptionsOf(const MeasureSettings& settings) {
  MeasureCliOptions o;
  static_cast<MeasureSettings&>(o) = settings;
  return o.jobOptions();
}

void addKernelOptions(CLI::App& command, MeasureCliOptions& o, bool required) {
  command
      .add_option("family", o.family, "kernel family (see `kwb list`), or a kernel file (FILE.cu)")
      ->required(required);
  command.add_option("variant", o.variant, "variant of the family (none after a kernel file)");
  command.add_option("params", o.params, "parameters as name=value (same as -p)");
  command.add_option("-p,--param", o.optionParams, "a parameter, name=value; repeat for more")
      ->allow_extra_args(false);
}

void addMeasureOptions(CLI::App& command, MeasureCliOptions& o, const std::string& budgetOption,
                       bool kernelRequired) {
  addKernelOptions(command, o, kernelRequired);
  command.add_option("--mode", o.mode, "cold: L2 flushed before each sample; hot: back to back")
      ->capture_default_str();
  command.add_option(budgetOption, o.budget, "seconds of timing per run at most")
      ->capture_default_str()
      ->check(positiveNumber(3600));
  command.add_option("--min-samples", o.minSamples, "samples per run at least (>= 10)")
      ->capture_default_str()
      ->check(wholeNumber(10, kMostSamples));
  command.add_option("--max-samples", o.maxSamples, "samples per run at most")
      ->capture_default_str()
      ->check(wholeNumber(10, kMostSamples));
  command.add_option("--target-rsd", o.targetRsd, "stop early once stddev / mean falls below this")
      ->capture_default_str()
      ->check(positiveNumber(1));
  command.add_option("--seed", o.seed, "seed of the random inputs")
      ->capture_default_str()
      ->check(wholeNumber(0, std::numeric_limits<std::uint64_t>::max()));
  command
      .add_option("--hang-after", o.hangSeconds,
                  "seconds the checked call may take; past them the kernel counts as hung, the "
                  "run fails and the process ends")
      ->capture_default_str()
      ->check(positiveNumber(86400));
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
  // An empty value would filter nothing: leaving the option out says that.
  for (auto [name, target, help] :
       {std::tuple{"--family", &o.family, "only this kernel family"},
        std::tuple{"--variant", &o.variant, "only this variant"},
        std::tuple{"--dtype", &o.dtype, "only this element type"},
        std::tuple{"--device", &o.device, "only this device (UUID or part of its name)"},
        std::tuple{"--status", &o.status, "only runs with this status (ok, failed, ...)"},
        std::tuple{"--tag", &o.tag, "only runs with this tag"},
        std::tuple{"--text", &o.text,
                   "only runs whose kernel, parameters, error, tags or notes contain this"},
        std::tuple{"--since", &o.since, "from this time on (2026-11-21, 2026-11-21T10:00, 7d)"},
        std::tuple{"--until", &o.until, "before this time"}})
    command.add_option(name, *target, help)->check(text(kLongestText));
  command.add_option("--limit", o.limit, "at most this many runs, newest first (0: all)")
      ->capture_default_str()
      ->check(wholeNumber(0, kMostRuns));
}

}  // namespace kwb
