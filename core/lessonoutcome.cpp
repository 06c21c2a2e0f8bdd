#include "core/lessonoutcome.h"

#include "core/error.h"
#include "core/format.h"

namespace kwb {
namespace {

std::string metricText(const RunResult& run, const std::string& name) {
  const Metric* m = run.metric(name);
  return m ? formatMetricValue(m->value, m->unit) : "not read";
}

}  // namespace

std::string lessonTag(const Lesson& lesson) {
  return "lesson:" + lesson.id;
}

LessonOutcome lessonOutcome(const Lesson& lesson, std::span<const RunResult> runs,
                            std::optional<double> predicted) {
  for (const auto& run : runs)
    if (run.status != RunStatus::Ok)
      throw Error(ErrorKind::Verification,
                  run.family + "/" + run.variant + " did not finish: " + run.error);
  const std::size_t expected = lesson.baseline ? (lesson.exercise.empty() ? 2 : 3) : 1;
  if (runs.size() != expected)
    throw Error(ErrorKind::Cancelled, expected > 1 ? "the lesson stopped before its runs finished"
                                                   : "the lesson stopped before its run finished");
  LessonOutcome out;
  out.hasBaseline = lesson.baseline.has_value();
  out.exercise = !lesson.exercise.empty();
  if (out.exercise) {
    out.stepMeasured = runs.front().stats.median / runs.back().stats.median;
    out.stepAfter = metricText(runs.back(), lesson.explains);
    runs = runs.first(2);  // what follows is about the learner's kernel
  }
  const RunResult& step = runs.back();
  out.measured =
      out.hasBaseline ? runs.front().stats.median / step.stats.median : step.stats.median;
  if (predicted) {
    out.predicted = out.hasBaseline ? *predicted : *predicted * 1e-6;
    out.offBy = out.measured / *out.predicted;
  }
  out.explains = lesson.explains;
  if (out.hasBaseline) out.before = metricText(runs.front(), lesson.explains);
  out.after = metricText(step, lesson.explains);
  return out;
}

}  // namespace kwb
