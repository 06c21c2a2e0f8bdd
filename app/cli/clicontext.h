#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/jobexecutor.h"
#include "core/measuresettings.h"
#include "core/protocol.h"
#include "core/tunesettings.h"
#include "core/validation.h"
#include "core/verdict.h"
#include "db/historyfilter.h"

namespace kwb {

class RunStore;

struct GlobalOptions {
  std::string db;  // empty: the default path
  bool noStore = false;
  bool json = false;
  int device = 0;
  std::string host;     // devices, run, sweep, tune, sass and worker on this machine's GPUs
  std::string devices;  // sweep, tune, worker: "all" or "0,1": a worker per GPU shares the points
};

// What every command gets: the streams to write to and the global options.
struct CliContext {
  std::ostream& out;
  std::ostream& err;
  GlobalOptions global;

  // The history database (--db or the default path), migrated. Throws Error(Database).
  std::unique_ptr<RunStore> openStore() const;
};

// Options shared by run and sweep: the configuration, and how to measure it.
struct MeasureCliOptions : MeasureSettings {
  std::string family;
  std::string variant;
  std::vector<std::string> params;        // k=v, as positional arguments
  std::vector<std::string> optionParams;  // k=v, each after -p

  bool sanitize = false;  // run: one checked call under memcheck instead
  std::string shardText;  // sweep, tune: "I/N", the share of the points this task runs
  bool isFile() const;    // `family` names a kernel file
  // What to run: a family's variant, or the kernel file with its text. Error(Usage) where the
  // file cannot be read or its spec is wrong, or a family comes without its variant.
  protocol::Kernel kernel() const;
  RawParams rawParams() const;    // Error(Usage) for an item without '='
  JobOptions jobOptions() const;  // Error(Usage) for impossible timing options
};
// The measurement settings of a worker request, checked as the command line's are.
JobOptions jobOptionsOf(const MeasureSettings& settings);
// Checks of option values, run as the command line is read, before anything else: a whole number
// in digits within a range, a finite number above 0 and at most `most`, text that is neither empty
// nor longer than `longest`. Their messages name the option.
inline constexpr std::uint64_t kMostSamples = 10'000'000;
inline constexpr std::uint64_t kMostRuns = 1'000'000'000;
inline constexpr std::size_t kLongestText = kLongestFilterText;
inline constexpr std::size_t kLongestPath = 4096;
CLI::Validator wholeNumber(std::uint64_t least, std::uint64_t most);
CLI::Validator positiveNumber(double most);
CLI::Validator text(std::size_t longest);

// The family, variant and parameters of a command about one configuration (run, sweep, sass).
void addKernelOptions(CLI::App& command, MeasureCliOptions& options, bool required = true);
// The timing budget per run is `budgetOption` (tune's own --budget is the whole tuning's).
void addMeasureOptions(CLI::App& command, MeasureCliOptions& options,
                       const std::string& budgetOption = "--budget", bool kernelRequired = true);

// `kwb tune`: the space, the strategy and when to stop, besides how to measure each point.
struct TuneCliOptions : MeasureCliOptions, TuneSettings {
  std::optional<std::int64_t> replay;
  std::string output;  // the result as JSON
  std::string header;  // the best as a C++ header
};
void addTuneOptions(CLI::App& command, TuneCliOptions& options);

struct FilterCliOptions {
  std::string family, variant, dtype, device, status, tag, text, since, until;
  std::size_t limit = 50;
  HistoryFilter filter() const;  // Error(Usage) for an unreadable time
};
void addFilterOptions(CLI::App& command, FilterCliOptions& options, std::size_t defaultLimit);

// The commands; each returns the process exit code and throws kwb::Error for the common paths.
int devicesCommand(CliContext& context);
// The device's measured ceilings (measured and kept the first time, or again with remeasure)
// beside its datasheet's figures.
int ceilingsCommand(CliContext& context, bool remeasure);
int listCommand(CliContext& context, const std::string& family);
int listMetricsCommand(CliContext& context);
int runCommand(CliContext& context, const MeasureCliOptions& options,
               const std::vector<std::string>& sweepAxes);
// Searches a space of configurations for the best (or, with --replay, a stored sweep's runs);
// the best few are measured again and compared, and the ones tied with the best are listed.
int tuneCommand(CliContext& context, const TuneCliOptions& options);
int historyCommand(CliContext& context, const FilterCliOptions& options);
int exportCommand(CliContext& context, const FilterCliOptions& options, const std::string& format,
                  const std::string& output, bool withSamples);
// The SASS of the kernels one configuration launches; summaryOnly leaves out the listings.
int sassCommand(CliContext& context, const MeasureCliOptions& options, bool summaryOnly);
int mergeCommand(CliContext& context, const std::vector<std::string>& sources);
int importCommand(CliContext& context, const std::vector<std::string>& files);
// One checked call of the configuration under compute-sanitizer's memcheck; exit 1 where it finds
// errors, which are printed with their source lines.
int sanitizeCommand(CliContext& context, const MeasureCliOptions& options);
// Writes the starting kernel file of a family the kernel implements ("" for one with its own
// reference) to path; refuses to write over a file unless forced.
int newCommand(CliContext& context, const std::string& path, const std::string& implements,
               bool force);
// Whether run is FASTER, SLOWER, the SAME as baseline or UNSURE, from their samples (core/verdict).
// BASELINE RUN, or RUN and the baseline marked for its configuration.
int compareCommand(CliContext& context, const std::vector<std::int64_t>& runs, bool withBaseline,
                   double band);
nlohmann::json verdictJson(const Verdict& v, std::int64_t baselineId, std::int64_t runId,
                           double band);
// Marks (or, with `clear`, unmarks) a run as its configuration's baseline; without a run, lists
// the baselines.
int baselineCommand(CliContext& context, std::optional<std::int64_t> runId, bool sameSource,
                    bool clear);
// Configurations whose newest run is SLOWER than their baseline (not by the clocks alone); exits
// with kExitRegression where there is one.
int regressionsCommand(CliContext& context, double band);
// A stored run's measurement quality with its doubts, and its verdict against its baseline.
int qualityCommand(CliContext& context, std::int64_t runId);

// The code of a run of a kernel file, or the difference between the code of two runs.
int codeCommand(CliContext& context, const std::vector<std::int64_t>& runs);
// Why two stored runs differ: the time's verdict, a sentence per known pattern in their hardware
// metrics, and the metrics ranked by how far they moved.
int explainCommand(CliContext& context, std::int64_t before, std::int64_t after, bool sass);
// Reads each kernel file's spec and compiles its default configuration for sm_<arch>.
int checkCommand(CliContext& context, const std::vector<std::string>& files, int arch);
// With `run` or a prediction (a speed-up, or microseconds for a lesson without a baseline), the
// lesson's baseline and step are run, stored and compared.
// An exercise's starting file is written with startFile; its runs take the learner's kernel file.
int lessonCommand(CliContext& context, const std::string& id, bool run,
                  std::optional<double> predicted, double budgetSeconds,
                  const std::string& startFile, const std::string& exerciseFile);

}  // namespace kwb
