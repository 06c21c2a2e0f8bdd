#include "core/lesson.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/error.h"

namespace kwb {

const std::vector<std::string_view>& embeddedLessonTexts();

namespace {

using nlohmann::json;

const json& field(const json& object, const char* name, const std::string& where) {
  if (!object.is_object() || !object.contains(name))
    throw Error(ErrorKind::Usage, where + ": '" + name + "' is missing");
  return object.at(name);
}

std::string text(const json& object, const char* name, const std::string& where) {
  const json& value = field(object, name, where);
  if (!value.is_string()) throw Error(ErrorKind::Usage, where + ": '" + name + "' is not text");
  return value.get<std::string>();
}

LessonRun runOf(const json& object, const std::string& where) {
  LessonRun run{text(object, "family", where), text(object, "variant", where), {}};
  const json& params = field(object, "params", where);
  if (!params.is_object())
    throw Error(ErrorKind::Usage, where + ": 'params' is not an object of name: value");
  for (const auto& [name, value] : params.items()) {
    if (!value.is_string())
      throw Error(ErrorKind::Usage, where + ": parameter '" + name + "' is not text");
    run.params[name] = value.get<std::string>();
  }
  return run;
}

int trackOrder(const std::string& track) {
  static const std::vector<std::string> order{"elementwise", "permute", "giou"};
  return static_cast<int>(std::find(order.begin(), order.end(), track) - order.begin());
}

}  // namespace

std::string commandLine(const LessonRun& run) {
  std::string text = "kwb run " + run.family + " " + run.variant;
  for (const auto& [name, value] : run.params) text += " " + name + "=" + value;
  return text;
}

RawParams exerciseParams(const Lesson& lesson, const std::vector<ParamSpec>& fileParams) {
  RawParams params;
  if (!lesson.baseline) return params;
  for (const auto& spec : fileParams)
    if (const auto it = lesson.baseline->params.find(spec.name);
        it != lesson.baseline->params.end())
      params[spec.name] = it->second;
  return params;
}

Lesson parseLesson(std::string_view source) {
  const json in = json::parse(source, nullptr, false);
  if (in.is_discarded()) throw Error(ErrorKind::Usage, "a lesson is not valid JSON");
  Lesson lesson;
  lesson.id = text(in, "id", "lesson");
  const std::string where = "lesson " + lesson.id;
  lesson.track = text(in, "track", where);
  const json& step = field(in, "step", where);
  if (!step.is_number_integer() || step.get<int>() < 1)
    throw Error(ErrorKind::Usage, where + ": 'step' is not a whole number from 1");
  lesson.step = step.get<int>();
  lesson.title = text(in, "title", where);
  lesson.run = runOf(field(in, "run", where), where + " run");
  if (in.contains("baseline")) lesson.baseline = runOf(in.at("baseline"), where + " baseline");
  lesson.explanation = text(in, "explanation", where);
  lesson.question = text(in, "question", where);
  lesson.metrics = text(in, "metrics", where);
  lesson.explains = text(in, "explains", where);
  lesson.view = text(in, "view", where);
  if (lesson.view != "roofline" && lesson.view != "waves" && lesson.view != "explain")
    throw Error(ErrorKind::Usage, where + ": 'view' is '" + lesson.view +
                                      "'; a lesson shows roofline, waves or explain");
  if (lesson.view == "explain" && !lesson.baseline)
    throw Error(ErrorKind::Usage,
                where + ": 'explain' needs a baseline to explain the step against");
  if (in.contains("exercise")) {
    lesson.exercise = text(in, "exercise", where);
    if (!lesson.baseline)
      throw Error(ErrorKind::Usage, where + ": an exercise is measured against a baseline");
  }
  return lesson;
}

const std::vector<Lesson>& lessons() {
  static const std::vector<Lesson> all = [] {
    std::vector<Lesson> out;
    for (std::string_view source : embeddedLessonTexts()) out.push_back(parseLesson(source));
    std::sort(out.begin(), out.end(), [](const Lesson& a, const Lesson& b) {
      return std::pair(trackOrder(a.track), a.step) < std::pair(trackOrder(b.track), b.step);
    });
    return out;
  }();
  return all;
}

const Lesson* findLesson(std::string_view id) {
  for (const auto& lesson : lessons())
    if (lesson.id == id) return &lesson;
  return nullptr;
}

}  // namespace kwb
