// `kwb lesson`: the workshop lessons, listed, shown with the commands that run them, or run
// against the learner's prediction.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "app/cli/clicontext.h"
#include "app/cli/exitcodes.h"
#include "app/cli/jobexecutor.h"
#include "app/cli/table.h"
#include "core/error.h"
#include "core/format.h"
#include "core/jsoncodec.h"
#include "core/lesson.h"
#include "core/lessonoutcome.h"
#include "core/metriccatalog.h"
#include "db/runstore.h"
#include "kernels/registry.h"
#include "kernels/user/kernelfile.h"
#include "kernels/user/uservariant.h"
#include "measure/devicequery.h"

namespace kwb {
namespace {

std::string command(const LessonRun& run, const std::string& metrics) {
  return commandLine(run) + (metrics.empty() ? "" : " --metrics " + metrics);
}

nlohmann::json toJson(const LessonRun& run) {
  return {{"family", run.family}, {"variant", run.variant}, {"params", run.params}};
}

nlohmann::json toJson(const Lesson& l) {
  nlohmann::json out{{"id", l.id},
                     {"track", l.track},
                     {"step", l.step},
                     {"title", l.title},
                     {"run", toJson(l.run)},
                     {"explanation", l.explanation},
                     {"question", l.question},
                     {"metrics", l.metrics},
                     {"explains", l.explains}};
  if (l.baseline) out["baseline"] = toJson(*l.baseline);
  return out;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

// Runs the baseline and the step (with the learner's kernel file between them in an exercise),
// stores them tagged with the lesson, and holds the measured speed-up (or time) against the
// prediction.
int runLesson(CliContext& context, const Lesson& l, std::optional<double> predicted,
              double budgetSeconds, const std::string& exerciseFile) {
  std::vector<std::shared_ptr<const Variant>> kernels;
  std::vector<ParamSet> points;
  const auto add = [&](std::shared_ptr<const Variant> kernel, const RawParams& params) {
    points.push_back(resolveFor(*kernel, params));
    kernels.push_back(std::move(kernel));
  };
  if (l.baseline)
    add(variantFor({l.baseline->family, l.baseline->variant, {}}), l.baseline->params);
  if (!l.exercise.empty()) {
    if (exerciseFile.empty())
      throw Error(ErrorKind::Usage, "lesson " + l.id +
                                        " is an exercise: give your kernel file with "
                                        "--file (`kwb lesson " +
                                        l.id +
                                        " --start FILE.cu` writes the "
                                        "starting one)");
    const KernelFile file = readKernelFile(exerciseFile);
    auto yours = variantFor({{}, {}, {}, file.path, file.source});
    const RawParams params = exerciseParams(l, yours->info().params);
    add(std::move(yours), params);
  }
  add(variantFor({l.run.family, l.run.variant, {}}), l.run.params);

  if (deviceCount() == 0) throw Error(ErrorKind::NoDevice, noDeviceReason());
  std::unique_ptr<RunStore> store;
  if (!context.global.noStore) store = context.openStore();
  JobExecutor executor(store.get(), context.global.device);
  JobOptions options;
  options.timing.budgetSeconds = budgetSeconds;
  if (!l.metrics.empty()) options.metrics = planMetrics(l.metrics);
  options.tags = {lessonTag(l)};
  std::vector<RunResult> results;
  JobEvents events;
  events.result = [&](std::size_t, const RunResult& r, std::optional<std::int64_t>) {
    results.push_back(r);
  };
  for (std::size_t i = 0; i < kernels.size(); ++i)
    executor.runPoints(kernels[i], {points[i]}, options, {}, nullptr, events);
  const LessonOutcome outcome = lessonOutcome(l, results, predicted);

  if (context.global.json) {
    nlohmann::json out{{"lesson", l.id}, {"measured", outcome.measured}, {"explains", l.explains}};
    if (predicted) out["predicted"] = *predicted;
    out["runs"] = nlohmann::json::array();
    for (const auto& r : results) out["runs"].push_back(kwb::toJson(r));
    context.out << out.dump(2) << '\n';
    return kExitOk;
  }
  const RunResult& step = results.back();
  const auto line = [&](const char* role, const RunResult& r) {
    context.out << "  " << role << r.variant << ": " << formatSeconds(r.stats.median) << ", "
                << formatBandwidth(r.bandwidth) << "\n";
  };
  context.out << l.track << ", step " << l.step << ": " << l.title << "\n";
  if (l.baseline) line("baseline  ", results.front());
  if (outcome.exercise) line("yours     ", results[1]);
  line(outcome.exercise ? "built in  " : "this step ", step);
  const auto value = [&](double v) {
    return outcome.hasBaseline ? number(v) + "x" : formatSeconds(v);
  };
  context.out << "measured " << (outcome.hasBaseline ? "speed-up " : "time ")
              << value(outcome.measured);
  if (outcome.predicted)
    context.out << "; you predicted " << value(*outcome.predicted) << " (off by "
                << number(*outcome.offBy) << "x)";
  if (outcome.exercise)
    context.out << "; the built-in step: " << number(outcome.stepMeasured) << "x";
  context.out << "\nwhy, " << outcome.explains << ": ";
  if (outcome.hasBaseline) context.out << outcome.before << " -> ";
  context.out << outcome.after
              << (outcome.exercise ? " (yours), " + outcome.stepAfter + " (built in)" : "") << "\n";
  if (!step.notice.empty()) context.err << "kwb: " << step.notice << "\n";
  return kExitOk;
}

}  // namespace

int lessonCommand(CliContext& context, const std::string& id, bool run,
                  std::optional<double> predicted, double budgetSeconds,
                  const std::string& startFile, const std::string& exerciseFile) {
  if (id.empty()) {
    if (context.global.json) {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& lesson : lessons()) out.push_back(toJson(lesson));
      context.out << out.dump(2) << '\n';
      return kExitOk;
    }
    Table table({"lesson", "track", "step", "title"});
    for (const auto& l : lessons()) table.addRow({l.id, l.track, std::to_string(l.step), l.title});
    table.print(context.out);
    return kExitOk;
  }
  const Lesson* lesson = findLesson(id);
  if (!lesson) {
    std::string allowed;
    for (const auto& l : lessons()) allowed += (allowed.empty() ? "" : ", ") + l.id;
    throw Error(ErrorKind::Param, "'" + id + "' is not a lesson; allowed: " + allowed, "lesson");
  }
  if (!startFile.empty()) {
    if (lesson->exercise.empty())
      throw Error(ErrorKind::Usage,
                  "lesson " + id + " is not an exercise: it has no starting file");
    return newCommand(context, startFile, lesson->exercise, false);
  }
  if (run || predicted) return runLesson(context, *lesson, predicted, budgetSeconds, exerciseFile);
  if (context.global.json) {
    context.out << toJson(*lesson).dump(2) << '\n';
    return kExitOk;
  }
  const Lesson& l = *lesson;
  context.out << l.track << ", step " << l.step << ": " << l.title << "\n\n"
              << l.explanation << "\n\n"
              << "Before running: " << l.question << "\n\n";
  if (l.baseline) context.out << "  baseline: " << command(*l.baseline, l.metrics) << "\n";
  if (!l.exercise.empty())
    context.out << "  yours: start with `kwb lesson " << l.id << " --start FILE.cu`, complete it\n";
  context.out << "  this step: " << command(l.run, l.metrics) << "\n\n"
              << (!l.exercise.empty()
                      ? "The speed-ups are the baseline's median over yours and this step's. "
                  : l.baseline ? "The speed-up is the baseline's median over this step's. "
                               : "Compare your prediction with the median. ")
              << "The metric that shows why: " << l.explains << ".\n"
              << "Run " << (l.exercise.empty() ? "both" : "them")
              << " with your prediction: kwb lesson " << l.id << " --predict "
              << (l.baseline ? "SPEEDUP" : "MICROSECONDS")
              << (l.exercise.empty() ? "" : " --file FILE.cu") << "\n";
  return kExitOk;
}

}  // namespace kwb
