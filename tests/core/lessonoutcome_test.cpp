#include "core/lessonoutcome.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/lessonruns.h"

namespace kwb {
namespace {

TEST(LessonOutcome, SpeedUpAgainstThePredictionWithTheMetricBeforeAndAfter) {
  const Lesson& padding = *findLesson("permute-5-padding");
  const std::vector runs{testing::lessonRun("tiled", 300e-6, 6.5e7),
                         testing::lessonRun("tiled", 200e-6, 48800)};
  const LessonOutcome o = lessonOutcome(padding, runs, 1.2);
  EXPECT_TRUE(o.hasBaseline);
  EXPECT_DOUBLE_EQ(o.measured, 1.5);
  EXPECT_DOUBLE_EQ(*o.predicted, 1.2);
  EXPECT_DOUBLE_EQ(*o.offBy, 1.25);
  EXPECT_EQ(o.explains, padding.explains);
  EXPECT_EQ(o.before, "65,000,000");
  EXPECT_EQ(o.after, "48,800");
  EXPECT_FALSE(lessonOutcome(padding, runs, std::nullopt).predicted);
}

TEST(LessonOutcome, WithoutABaselineTheTimeIsTheMeasureInMicroseconds) {
  const Lesson& first = *findLesson("giou-1-per-sample");
  ASSERT_FALSE(first.baseline);
  const LessonOutcome o =
      lessonOutcome(first, std::vector{testing::lessonRun("per_sample", 0.1, 0)}, 50000);
  EXPECT_FALSE(o.hasBaseline);
  EXPECT_DOUBLE_EQ(o.measured, 0.1);
  EXPECT_DOUBLE_EQ(*o.predicted, 0.05);
  EXPECT_DOUBLE_EQ(*o.offBy, 2);
  EXPECT_TRUE(o.before.empty());
}

TEST(LessonOutcome, RunsThatCannotBeComparedAreNamed) {
  const Lesson& padding = *findLesson("permute-5-padding");
  RunResult failed = testing::lessonRun("tiled", 1, 1);
  failed.status = RunStatus::Failed;
  failed.error = "an illegal memory access";
  try {
    lessonOutcome(padding, std::vector{testing::lessonRun("tiled", 1, 1), failed}, 1.0);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Verification);
    EXPECT_NE(std::string(e.what()).find("an illegal memory access"), std::string::npos);
  }
  try {
    lessonOutcome(padding, std::vector{testing::lessonRun("tiled", 1, 1)}, 1.0);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Cancelled);
  }
}

// An exercise's prediction and metric are about the learner's kernel, the middle run; the step
// is reported beside it.
TEST(LessonOutcome, AnExerciseIsAboutTheLearnersKernel) {
  Lesson exercise = *findLesson("permute-5-padding");
  exercise.exercise = "permute";
  const std::vector runs{testing::lessonRun("naive", 600e-6, 100),
                         testing::lessonRun("my_transpose", 300e-6, 50),
                         testing::lessonRun("tiled", 200e-6, 10)};
  const LessonOutcome o = lessonOutcome(exercise, runs, 2.5);
  EXPECT_TRUE(o.exercise);
  EXPECT_DOUBLE_EQ(o.measured, 2.0);
  EXPECT_DOUBLE_EQ(*o.offBy, 0.8);
  EXPECT_EQ(o.before, "100");
  EXPECT_EQ(o.after, "50");
  EXPECT_DOUBLE_EQ(o.stepMeasured, 3.0);
  EXPECT_EQ(o.stepAfter, "10");
  EXPECT_THROW(lessonOutcome(exercise, std::span(runs).first(2), 2.5), Error);
}

TEST(LessonOutcome, EveryLessonRunIsTaggedWithItsId) {
  EXPECT_EQ(lessonTag(*findLesson("permute-5-padding")), "lesson:permute-5-padding");
}

}  // namespace
}  // namespace kwb
