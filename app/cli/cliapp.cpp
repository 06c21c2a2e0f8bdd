#include "app/cli/cliapp.h"

#include <limits>

#include <CLI/CLI.hpp>

#include "app/cli/bashcompletion.h"
#include "app/cli/clicontext.h"
#include "app/cli/exitcodes.h"
#include "app/cli/poolgpus.h"
#include "app/cli/relayworker.h"
#include "app/cli/slurmcommand.h"
#include "app/cli/worker.h"
#include "core/format.h"
#include "db/runstore.h"
#include "measure/buildinfo.h"

namespace kwb {
namespace {

constexpr const char* kDescription =
    "Kernel Workbench: run CUDA kernel variants, measure them against the copy ceiling, and keep "
    "every run in a history database.";

}  // namespace

int runCli(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
           std::ostream& err) {
  CLI::App app(kDescription, "kwb");
  app.require_subcommand(0, 1);  // none: said below with the commands there are
  app.fallthrough();
  app.set_version_flag(
      "--version", [] { return buildInfoText(); },
      "the version, the CUDA runtime, driver, NVRTC and CUPTI it uses, and the "
      "architectures it carries code for");

  CliContext context{out, err, {}};
  GlobalOptions& g = context.global;
  app.add_option("--db", g.db,
                 "history database (default: $XDG_DATA_HOME/kernel-workbench/history.sqlite)")
      ->check(text(kLongestPath));
  app.add_flag("--no-store", g.noStore, "do not store runs (nor read the cached copy ceiling)");
  app.add_flag("--json", g.json, "machine-readable output");
  app.add_option("--device", g.device, "CUDA device ordinal")
      ->capture_default_str()
      ->check(wholeNumber(0, 1023));
  app.add_option("--devices", g.devices,
                 "sweep, tune and worker: the points shared among several GPUs, a worker each: "
                 "all, or ordinals as 0,1")
      ->check(text(kLongestText));
  app.add_option(
         "--host", g.host,
         "devices, run, sweep, tune, sass and worker on another machine's GPUs through "
         "your ssh (USER@SERVER or a Host of your ssh config): its kwb worker ($KWB_REMOTE_KWB, "
         "default kwb) started with $KWB_SSH (default ssh); results are stored here")
      ->check(text(kLongestText));

  // Global, as the window gives them before `worker`; `kwb sweep ... --slurm` reads the same.
  SlurmOptions slurm;
  app.add_flag("--slurm", slurm.use,
               "sweep, tune and worker: submit the points as a Slurm job array (sbatch), "
               "each task running its share into a history of its own, merged into this "
               "one at the end");
  app.add_option("--partition", slurm.partition, "with --slurm: the partition")
      ->check(text(kLongestText));
  app.add_option("--gres", slurm.gres, "with --slurm: the generic resources a task needs, as gpu:1")
      ->check(text(kLongestText));
  app.add_option("--tasks", slurm.tasks, "with --slurm: the array's tasks (at most one per point)")
      ->check(wholeNumber(1, 10000));
  app.add_option("--time", slurm.time, "with --slurm: a task's time limit, as 30:00")
      ->check(text(kLongestText));

  auto* devices = app.add_subcommand("devices", "list the CUDA devices and their limits");
  bool ceilings = false, remeasure = false;
  devices->add_flag("--ceilings", ceilings,
                    "the --device's bandwidths (DRAM, L2, shared memory) and FMA throughputs "
                    "(FP32, FP16, BF16, FP64) measured by micro-kernels, beside the datasheet's; "
                    "measured once and kept in the history");
  devices->add_flag("--remeasure", remeasure, "with --ceilings: measure them again");
  std::string listFamily;
  auto* list =
      app.add_subcommand("list", "list kernel families and variants, or one family's parameters");
  list->add_option("family", listFamily, "a family to describe in full")->check(text(kLongestText));
  bool listMetrics = false;
  list->add_flag("--metrics", listMetrics,
                 "the hardware metric sets that run and sweep take with --metrics");

  MeasureCliOptions runOptions;
  auto* run = app.add_subcommand("run", "run one kernel variant, verify it, time it and store it");
  addMeasureOptions(*run, runOptions);
  run->add_flag("--sanitize", runOptions.sanitize,
                "check memory instead: one checked call under compute-sanitizer's memcheck, its "
                "first errors with their source lines (nothing is stored)");

  MeasureCliOptions sweepOptions;
  std::vector<std::string> axes;
  auto* sweep = app.add_subcommand("sweep", "run a variant over one or two swept parameters");
  addMeasureOptions(*sweep, sweepOptions);
  sweep
      ->add_option("-s,--sweep", axes,
                   "a swept parameter: name=v1,v2,... | name=start:end[:step] | name=start:end:*k")
      ->required()
      ->allow_extra_args(false);

  TuneCliOptions tuneOptions;
  auto* tune = app.add_subcommand(
      "tune", "search a space of configurations for the best, on the GPU or over a stored sweep");
  addTuneOptions(*tune, tuneOptions);
  for (auto [command, options] : {std::pair{sweep, &sweepOptions}, {tune, &tuneOptions}})
    command
        ->add_option("--shard", options->shardText,
                     "run only this share of the points, I/N: those whose position is I modulo N "
                     "(each task of a job array its own)")
        ->check(text(kLongestText));

  MeasureCliOptions sassOptions;
  bool sassSummary = false;
  auto* sass = app.add_subcommand(
      "sass",
      "the machine code of the kernels a configuration launches (needs a GPU; cuobjdump "
      "where the history database has no copy)");
  addKernelOptions(*sass, sassOptions);
  sass->add_flag("--summary", sassSummary, "only the counts of the instructions that matter");

  FilterCliOptions historyOptions;
  auto* history = app.add_subcommand("history", "list stored runs, newest first");
  addFilterOptions(*history, historyOptions, 50);
  bool regressions = false;
  double regressionBand = 0.01;
  history->add_flag("--regressions", regressions,
                    "instead, the configurations whose newest run is slower than their baseline "
                    "(exit status 7 when there is one)");
  history->add_option("--band", regressionBand, "relative difference still called the same")
      ->capture_default_str()
      ->check(positiveNumber(0.5));

  FilterCliOptions exportOptions;
  std::string format;
  std::string output;
  bool withSamples = false;
  auto* exportCmd = app.add_subcommand("export", "write stored runs as CSV or JSON");
  addFilterOptions(*exportCmd, exportOptions, 0);
  exportCmd
      ->add_option("--format", format,
                   "csv, json, nvbench (nvbench's JSON results) or t4 (Kernel Tuner's results)")
      ->required();
  exportCmd->add_option("-o,--output", output, "file to write (default: standard output)")
      ->check(text(kLongestPath));
  exportCmd->add_flag("--samples", withSamples,
                      "include every timing sample (json; nvbench: sample files beside -o FILE)");

  std::vector<std::string> importFiles;
  auto* importCmd = app.add_subcommand(
      "import", "add nvbench JSON results to the history, as runs of the \"imported\" family");
  importCmd->add_option("files", importFiles, "nvbench JSON files (--json or --jsonbin output)")
      ->required()
      ->check(text(kLongestPath));

  std::string lessonId;
  auto* lesson = app.add_subcommand(
      "lesson", "the workshop lessons, one per optimization step; with an id, the lesson");
  lesson->add_option("id", lessonId, "a lesson to show: what it teaches and how to run it")
      ->check(text(kLongestText));
  bool lessonRun = false;
  std::optional<double> lessonPrediction;
  double lessonBudget = 0.5;
  lesson->add_flag("--run", lessonRun, "run the step and its baseline, store them, compare");
  lesson
      ->add_option("--predict", lessonPrediction,
                   "your prediction: the speed-up over the baseline (microseconds where the "
                   "lesson has none); runs the lesson")
      ->check(positiveNumber(1e9));
  std::string lessonStart, lessonFile;
  lesson->add_option("--start", lessonStart, "an exercise: write its starting kernel file here")
      ->check(text(kLongestPath));
  lesson->add_option("--file", lessonFile, "an exercise: your kernel file, run between the two")
      ->check(text(kLongestPath));
  lesson->add_option("--budget", lessonBudget, "timing seconds per run")
      ->capture_default_str()
      ->check(positiveNumber(3600));

  std::vector<std::string> checkFiles;
  int checkArch = 90;
  auto* check = app.add_subcommand(
      "check", "check kernel files: read each spec and compile its defaults (no GPU needed)");
  check->add_option("files", checkFiles, "kernel files (.cu with a /* kwb ... */ spec)")
      ->required()
      ->check(text(kLongestPath));
  check->add_option("--arch", checkArch, "the SM architecture to compile for, as 90 for sm_90")
      ->capture_default_str()
      ->check(wholeNumber(50, 120));

  std::string newPath, newImplements;
  bool newForce = false;
  auto* newCmd = app.add_subcommand("new", "write a commented starting kernel file");
  newCmd->add_option("file", newPath, "the file to write (FILE.cu)")
      ->required()
      ->check(text(kLongestPath));
  newCmd
      ->add_option("--implements", newImplements,
                   "a built-in family whose inputs and reference check the kernel (copy, giou, "
                   "elementwise, permute); without it the file has a reference kernel of its own")
      ->check(text(kLongestText));
  newCmd->add_flag("--force", newForce, "write over an existing file");

  std::vector<std::int64_t> codeRuns;
  auto* code = app.add_subcommand(
      "code", "the code a stored run of a kernel file ran; with two runs, how their code differs");
  code->add_option("runs", codeRuns, "one or two run ids (see `kwb history`)")
      ->required()
      ->expected(1, 2)
      ->check(wholeNumber(1, std::numeric_limits<std::int64_t>::max()));

  std::vector<std::int64_t> explainRuns;
  auto* explain = app.add_subcommand(
      "explain",
      "why two stored runs differ: their hardware metrics ranked by how far they moved, "
      "and what the known patterns among them mean");
  explain->add_option("runs", explainRuns, "the two run ids, the one to explain last")
      ->required()
      ->expected(2)
      ->check(wholeNumber(1, std::numeric_limits<std::int64_t>::max()));
  bool explainSass = false;
  explain->add_flag("--sass", explainSass,
                    "also compare the widths of the global loads and stores in the runs' machine "
                    "code (runs one call of each on the GPU, as kwb sass does)");

  std::vector<std::int64_t> compareRuns;
  bool compareWithBaseline = false;
  double compareBand = 0.01;
  auto* compare = app.add_subcommand(
      "compare", "whether a run is faster, slower or the same as another, with an interval");
  compare
      ->add_option("runs", compareRuns,
                   "BASELINE RUN: the run compared against, then the run (see `kwb history`)")
      ->required()
      ->expected(1, 2)
      ->check(wholeNumber(1, std::numeric_limits<std::int64_t>::max()));
  compare->add_flag("--baseline", compareWithBaseline,
                    "compare one RUN with the baseline marked for its configuration");
  compare->add_option("--band", compareBand, "relative difference still called the same")
      ->capture_default_str()
      ->check(positiveNumber(0.5));

  std::int64_t qualityRun = 0;
  auto* quality = app.add_subcommand(
      "quality",
      "how far a stored run's time can be trusted, and its verdict against its baseline");
  quality->add_option("run", qualityRun, "the run (see `kwb history`)")
      ->required()
      ->check(wholeNumber(1, std::numeric_limits<std::int64_t>::max()));

  std::optional<std::int64_t> baselineRun;
  bool baselineSameSource = false, baselineClear = false;
  auto* baseline = app.add_subcommand(
      "baseline", "mark a run as the baseline of its configuration; without one, list them");
  baseline->add_option("run", baselineRun, "the run (see `kwb history`)")
      ->check(wholeNumber(1, std::numeric_limits<std::int64_t>::max()));
  baseline->add_flag("--same-source", baselineSameSource,
                     "for a kernel file: compare only runs of the same source version");
  baseline->add_flag("--clear", baselineClear, "unmark the run");

  auto* db = app.add_subcommand("db", "work on history databases");
  db->require_subcommand(0, 1);
  std::vector<std::string> mergeSources;
  auto* merge = db->add_subcommand(
      "merge", "add the runs of other history databases (a workshop's attendees') to --db");
  merge->add_option("sources", mergeSources, "history databases to read")->required();

  std::string shell;
  auto* completion = app.add_subcommand(
      "completion", "print a shell completion script (installed with the package for bash)");
  completion->add_option("shell", shell, "the shell: bash")
      ->required()
      ->check(CLI::IsMember({"bash"}));

  auto* worker =
      app.add_subcommand("worker", "serve JSON-lines requests on stdin/stdout (docs/protocol.md)");

  std::vector<const char*> argv{"kwb"};
  for (const auto& arg : args) argv.push_back(arg.c_str());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e, out, err);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e, out, err);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e, out, err);
  } catch (const CLI::ParseError& e) {
    std::string message = e.what();
    if (message.ends_with(": ")) message += "'' (an empty argument)";  // else it shows as nothing
    err << "kwb: " << printable(message) << "\nRun with --help for more information.\n";
    return kExitBadInput;
  }

  // A command (or db's) left out: name the ones there are.
  const auto commandsOf = [](const CLI::App& parent) {
    std::string names;
    for (const CLI::App* command : parent.get_subcommands([](const CLI::App*) { return true; }))
      names += (names.empty() ? "" : ", ") + command->get_name();
    return names;
  };
  if (app.get_subcommands().empty() || (db->parsed() && db->get_subcommands().empty())) {
    const bool ofDb = db->parsed();
    err << "kwb: " << (ofDb ? "db needs a command" : "a command is required")
        << "; allowed: " << commandsOf(ofDb ? *db : app)
        << "\nRun with --help for more information.\n";
    return kExitBadInput;
  }

  try {
    // What runs on another machine; anything else would quietly run here.
    const bool remote = (devices->parsed() && !ceilings && !remeasure) ||
                        (run->parsed() && !runOptions.sanitize) || sweep->parsed() ||
                        sass->parsed() || worker->parsed() ||
                        (tune->parsed() && !tuneOptions.replay);
    if (!g.devices.empty() &&
        !(sweep->parsed() || worker->parsed() || (tune->parsed() && !tuneOptions.replay)))
      throw Error(ErrorKind::Usage, "--devices is taken by sweep, tune and worker");
    if (slurm.use && !(sweep->parsed() || tune->parsed() || worker->parsed()))
      throw Error(ErrorKind::Usage, "--slurm is taken by sweep, tune and worker");
    if (!g.host.empty() && !remote)
      throw Error(ErrorKind::Usage,
                  "--host is taken by devices, run, sweep, tune, sass and worker; this command "
                  "runs here");
    if (devices->parsed())
      return ceilings || remeasure ? ceilingsCommand(context, remeasure) : devicesCommand(context);
    if (list->parsed())
      return listMetrics ? listMetricsCommand(context) : listCommand(context, listFamily);
    if (run->parsed())
      return runOptions.sanitize ? sanitizeCommand(context, runOptions)
                                 : runCommand(context, runOptions, {});
    if (sweep->parsed())
      return slurm.use ? slurmSweep(context, args, sweepOptions, axes, slurm)
                       : runCommand(context, sweepOptions, axes);
    if (tune->parsed())
      return slurm.use ? slurmTune(context, args, tuneOptions, slurm)
                       : tuneCommand(context, tuneOptions);
    if (sass->parsed()) return sassCommand(context, sassOptions, sassSummary);
    if (history->parsed())
      return regressions ? regressionsCommand(context, regressionBand)
                         : historyCommand(context, historyOptions);
    if (exportCmd->parsed())
      return exportCommand(context, exportOptions, format, output, withSamples);
    if (merge->parsed()) return mergeCommand(context, mergeSources);
    if (importCmd->parsed()) return importCommand(context, importFiles);
    if (check->parsed()) return checkCommand(context, checkFiles, checkArch);
    if (newCmd->parsed()) return newCommand(context, newPath, newImplements, newForce);
    if (code->parsed()) return codeCommand(context, codeRuns);
    if (explain->parsed())
      return explainCommand(context, explainRuns[0], explainRuns[1], explainSass);
    if (compare->parsed())
      return compareCommand(context, compareRuns, compareWithBaseline, compareBand);
    if (quality->parsed()) return qualityCommand(context, qualityRun);
    if (baseline->parsed()) {
      if (baselineClear && !baselineRun) throw Error(ErrorKind::Usage, "--clear needs a run");
      return baselineCommand(context, baselineRun, baselineSameSource, baselineClear);
    }
    if (lesson->parsed()) {
      if ((lessonRun || lessonPrediction) && lessonId.empty())
        throw Error(ErrorKind::Usage, "--run and --predict need a lesson id");
      return lessonCommand(context, lessonId, lessonRun, lessonPrediction, lessonBudget,
                           lessonStart, lessonFile);
    }
    if (completion->parsed()) {
      out << bashCompletion(app);
      return kExitOk;
    }
    if (worker->parsed()) {
      std::unique_ptr<RunStore> store;
      if (!g.noStore) store = context.openStore();
      if (slurm.use && !store)
        throw Error(ErrorKind::Usage,
                    "--slurm merges the tasks' runs into the history: not "
                    "with --no-store");
      if (!g.host.empty() || !g.devices.empty() || slurm.use) {
        std::vector<int> ordinals{g.device};
        if (!g.devices.empty()) {
          // Where the GPUs cannot be listed, the first worker says why to the client.
          try {
            ordinals = poolGpus(context, g.devices).ordinals;
          } catch (const Error& error) {
            if (error.kind() == ErrorKind::Usage) throw;
          }
        }
        return runRelay(in, out, err, store.get(), g.host, ordinals, slurm);
      }
      return runWorker(in, out, store.get(), g.device);
    }
  } catch (const Error& e) {
    err << "kwb: " << printable(e.what()) << "\n";
    return exitCodeFor(e.kind());
  } catch (const std::exception& e) {
    err << "kwb: internal error: " << printable(e.what()) << "\n";
    return kExitFailed;
  }
  return kExitBadInput;
}

}  // namespace kwb
