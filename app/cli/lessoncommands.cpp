// `kwb lesson`: the workshop lessons, listed or shown with the commands that run them.
#include <nlohmann/json.hpp>

#include "app/cli/clicontext.h"
#include "app/cli/exitcodes.h"
#include "app/cli/table.h"
#include "core/error.h"
#include "core/lesson.h"

namespace kwb {
namespace {

std::string command(const LessonRun& run, const std::string& metrics) {
  std::string text = "kwb run " + run.family + " " + run.variant;
  for (const auto& [name, value] : run.params) text += " " + name + "=" + value;
  if (!metrics.empty()) text += " --metrics " + metrics;
  return text;
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

}  // namespace

int lessonCommand(CliContext& context, const std::string& id) {
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
  if (context.global.json) {
    context.out << toJson(*lesson).dump(2) << '\n';
    return kExitOk;
  }
  const Lesson& l = *lesson;
  context.out << l.track << ", step " << l.step << ": " << l.title << "\n\n"
              << l.explanation << "\n\n"
              << "Before running: " << l.question << "\n\n";
  if (l.baseline) context.out << "  baseline: " << command(*l.baseline, l.metrics) << "\n";
  context.out << "  this step: " << command(l.run, l.metrics) << "\n\n"
              << (l.baseline ? "The speed-up is the baseline's median over this step's. "
                             : "Compare your prediction with the median. ")
              << "The metric that shows why: " << l.explains << ".\n";
  return kExitOk;
}

}  // namespace kwb
