#pragma once

#include <optional>
#include <span>
#include <string>

#include "core/lesson.h"
#include "core/runresult.h"

namespace kwb {

// The tag every stored run of a lesson carries, wherever it was run from: "lesson:ID".
std::string lessonTag(const Lesson& lesson);

// What a lesson's runs measured against the learner's prediction: the speed-up of the step over
// the baseline (or the step's time where the lesson has none), how far off the prediction was,
// and the metric that explains it before and after. Values, for the CLI and the window to word.
struct LessonOutcome {
  bool hasBaseline = false;
  // The speed-up (baseline median / step median), or the step's median in seconds.
  double measured = 0;
  // The prediction in the same unit as measured (a speed-up, or seconds), and measured over it.
  std::optional<double> predicted;
  std::optional<double> offBy;
  std::string explains;  // the explaining metric's name
  // Its formatted value for the baseline and the step; "not read" where a run lacks it.
  std::string before, after;
  // An exercise: measured, predicted and after are about the learner's kernel; the built-in step
  // measured this, with this value of the metric.
  bool exercise = false;
  double stepMeasured = 0;
  std::string stepAfter;
};

// The runs are the baseline's then the step's (the step's alone without a baseline; baseline,
// the learner's kernel, then the step for an exercise); predicted is a speed-up, or microseconds
// for a lesson without a baseline. Throws Error(Verification) naming
// a run that did not finish, Error(Cancelled) when runs are missing.
LessonOutcome lessonOutcome(const Lesson& lesson, std::span<const RunResult> runs,
                            std::optional<double> predicted);

}  // namespace kwb
