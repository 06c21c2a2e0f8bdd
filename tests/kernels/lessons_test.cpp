// Every lesson the build ships can run: its presets pass validation against the registry, and
// the metric that explains it is one its metric sets read or one every run records.
#include "core/lesson.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/error.h"
#include "core/kerneltemplate.h"
#include "core/metriccatalog.h"
#include "kernels/registry.h"
#include "kernels/user/uservariant.h"

namespace kwb {
namespace {

TEST(Lessons, EveryStepOfTheThreeWriteUps) {
  std::map<std::string, std::vector<int>> steps;
  std::set<std::string> ids;
  for (const auto& lesson : lessons()) {
    steps[lesson.track].push_back(lesson.step);
    EXPECT_TRUE(ids.insert(lesson.id).second) << lesson.id << " twice";
    EXPECT_EQ(findLesson(lesson.id), &lesson);
  }
  EXPECT_EQ(steps["elementwise"].size(), 7u);
  // Seven past the write-up: cells, swizzle, row walk, aligned stores, shifted vectors, packed
  // tiles, lines.
  EXPECT_EQ(steps["permute"].size(), 13u);
  EXPECT_EQ(steps["giou"].size(), 7u);
  for (const auto& [track, numbers] : steps)
    for (std::size_t i = 0; i < numbers.size(); ++i)
      EXPECT_EQ(numbers[i], static_cast<int>(i + 1)) << track << ": steps in order from 1";
  EXPECT_EQ(lessons().front().id, "elementwise-1-naive");
  EXPECT_EQ(findLesson("no-such-lesson"), nullptr);
}

TEST(Lessons, PresetsPassValidationAgainstTheRegistry) {
  const auto resolves = [](const LessonRun& run) {
    try {
      Registry::instance().resolve(run.family, run.variant, run.params);
      return std::string();
    } catch (const Error& e) {
      return std::string(e.what());
    }
  };
  for (const auto& lesson : lessons()) {
    EXPECT_EQ(resolves(lesson.run), "") << lesson.id;
    if (lesson.baseline) {
      EXPECT_EQ(resolves(*lesson.baseline), "") << lesson.id << " baseline";
    }
    if (lesson.baseline && lesson.step > 1) {
      EXPECT_EQ(lesson.baseline->family, lesson.run.family) << lesson.id;
    }
  }
}

TEST(Lessons, TheExplainingMetricIsRead) {
  for (const auto& lesson : lessons()) {
    if (lesson.explains.rfind("host.", 0) == 0 || lesson.explains.rfind("activity.", 0) == 0)
      continue;  // recorded for every run
    ASSERT_FALSE(lesson.metrics.empty()) << lesson.id;
    const MetricPlan plan = planMetrics(lesson.metrics);
    const bool counted = std::find(plan.counters.begin(), plan.counters.end(), lesson.explains) !=
                         plan.counters.end();
    const bool derived =
        std::any_of(plan.derived.begin(), plan.derived.end(),
                    [&](const DerivedMetric& d) { return d.name == lesson.explains; });
    EXPECT_TRUE(counted || derived)
        << lesson.id << ": " << lesson.explains << " is not in " << lesson.metrics;
  }
}

TEST(Lessons, AMalformedLessonNamesItsField) {
  const auto error = [](const std::string& source) {
    try {
      parseLesson(source);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(error("{"), "a lesson is not valid JSON");
  EXPECT_EQ(error(R"({"id": "x"})"), "lesson x: 'track' is missing");
  EXPECT_EQ(error(R"({"id": "x", "track": "t", "step": 0})"),
            "lesson x: 'step' is not a whole number from 1");
  EXPECT_EQ(error(R"({"id": "x", "track": "t", "step": 1, "title": "T",
                      "run": {"family": "copy", "variant": "memcpy", "params": {"n": 5}}})"),
            "lesson x run: parameter 'n' is not text");
  const std::string lesson = R"({"id": "x", "track": "t", "step": 1, "title": "T",
      "run": {"family": "copy", "variant": "memcpy", "params": {}}, "explanation": "E",
      "question": "Q", "metrics": "", "explains": "host.launches_per_call", )";
  EXPECT_EQ(error(lesson + R"("view": "sass"})"),
            "lesson x: 'view' is 'sass'; a lesson shows roofline, waves or explain");
  EXPECT_EQ(error(lesson + R"("view": "explain"})"),
            "lesson x: 'explain' needs a baseline to explain the step against");
  EXPECT_EQ(parseLesson(lesson + R"("view": "waves"})").view, "waves");
}

// Each exercise's starting file reads, implements the lesson's family, and takes the baseline's
// problem: the three runs compare like with like.
TEST(Lessons, ExercisesStartFromAFileOfTheirFamily) {
  int exercises = 0;
  for (const auto& lesson : lessons()) {
    if (lesson.exercise.empty()) continue;
    ++exercises;
    const UserVariant file(kernelFileOf(lesson.exercise + ".cu", kernelTemplate(lesson.exercise)));
    EXPECT_EQ(file.info().family, lesson.baseline->family) << lesson.id;
    const RawParams params = exerciseParams(lesson, file.info().params);
    EXPECT_FALSE(params.empty()) << lesson.id;
    EXPECT_NO_THROW(resolveFor(file, params)) << lesson.id;
  }
  EXPECT_EQ(exercises, 3);
}

}  // namespace
}  // namespace kwb
