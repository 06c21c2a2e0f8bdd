#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/deviceinfo.h"

namespace kwb {

// How to measure a run or a sweep, as the user gives it (command-line options, a worker request's
// "options"): checked and turned into the measurement's own options where the job is made.
struct MeasureSettings {
  std::string mode = "cold";  // cold: L2 flushed before each sample; hot: back to back
  double budget = 1.0;        // seconds of timing per run at most
  std::size_t minSamples = 10;
  std::size_t maxSamples = 1000;
  double targetRsd = 0.005;
  std::uint64_t seed = 1;
  bool verifyOnly = false;
  std::string metrics;            // sets and metric names, comma separated; empty: none
  std::vector<std::string> tags;  // given to every stored run ("lesson:permute-5-padding")
  // A checked call not finished after this many seconds is a hang: the run fails, and the
  // process that ran it ends (nothing else can use the device while the kernel runs).
  double hangSeconds = 30;
  // The device's copy ceiling as the client's history holds it: a worker given one measures none
  // before its first run (a pooled worker, which keeps no history, would otherwise measure it).
  std::optional<CopyCeiling> copyCeiling = std::nullopt;
};

}  // namespace kwb
