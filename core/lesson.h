#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/validation.h"

namespace kwb {

// A kernel configuration a lesson runs: as `kwb run FAMILY VARIANT name=value...` takes it.
struct LessonRun {
  std::string family;
  std::string variant;
  RawParams params;
};

// One optimization step of a write-up, for a workshop: what to run and what to compare it with,
// why it should be faster, the question the learner answers before running, and the metric that
// explains the measured difference. From resources/lessons/*.json.
struct Lesson {
  std::string id;     // "permute-5-padding"
  std::string track;  // "elementwise", "permute", "giou": one write-up each
  int step = 0;       // its place in the track, from 1
  std::string title;
  LessonRun run;
  std::optional<LessonRun> baseline;  // what the speed-up is measured against; none: the time
  std::string explanation;
  std::string question;
  std::string metrics;   // the metric sets to read (kwb --metrics); empty: none needed
  std::string explains;  // the metric that shows why: a counter, or a host. or activity. value
  // The view that shows the step's point, opened on the Lesson tab after the run: "roofline",
  // "waves" or "explain" (the baseline against the step).
  std::string view;
  // An exercise: the kernel starting file (`kwb new` names) the learner completes; their kernel
  // runs between the baseline and the step, and the prediction is about it. Empty otherwise.
  std::string exercise;
};

// The learner's kernel file's parameters in an exercise: the baseline's values of those the file
// declares, so that the three runs solve the same problem; the file's defaults for the rest.
RawParams exerciseParams(const Lesson& lesson, const std::vector<ParamSpec>& fileParams);

// "kwb run FAMILY VARIANT name=value ...": how the run is typed at the command line.
std::string commandLine(const LessonRun& run);

// Throws Error(Usage) naming the field that is missing or of the wrong type.
Lesson parseLesson(std::string_view json);

// Every lesson this build ships, by track (in the write-ups' order) and step.
const std::vector<Lesson>& lessons();
const Lesson* findLesson(std::string_view id);

}  // namespace kwb
