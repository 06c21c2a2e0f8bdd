#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/paramset.h"
#include "core/stats.h"

namespace kwb {

enum class RunStatus { Ok, Failed, VerificationFailed, Cancelled };
enum class TimingMode { Cold, Hot };
// How L2 was emptied before each cold sample: not at all (hot), by writing a buffer twice its size
// (runs before schema 5: the dirty lines' write-back fell into the kernel's time), or by writing
// and then reading it (no write-back left).
enum class L2Flush { None, Write, WriteRead };

std::string_view toString(RunStatus status);
std::optional<RunStatus> parseRunStatus(std::string_view text);
std::string_view toString(TimingMode mode);
std::optional<TimingMode> parseTimingMode(std::string_view text);
std::string_view toString(L2Flush flush);
std::optional<L2Flush> parseL2Flush(std::string_view text);
// What older runs, which do not say, used.
inline L2Flush legacyFlush(TimingMode mode) {
  return mode == TimingMode::Hot ? L2Flush::None : L2Flush::Write;
}

struct Verification {
  bool checked = false;
  bool passed = false;
  double relError = 0;  // ||out - ref||_2 / ||ref||_2 against the double-precision reference
  double tolerance = 0;
};

// A hardware metric (Nsight Compute's name), a kernel duration or a GPU state reading.
struct Metric {
  std::string name;
  double value = 0;
  std::string unit;
  std::string kernel;  // the kernel it was read for; empty for the whole run
  friend bool operator==(const Metric&, const Metric&) = default;
};

// The code of a user's kernel as it ran: its file, the text and the SHA-256 of the text, and the
// spec (the TOML of the file's leading comment), so that every run can show what it measured.
struct KernelCode {
  std::string file;
  std::string hash;
  std::string source;
  std::string spec;
  friend bool operator==(const KernelCode&, const KernelCode&) = default;
};

// Everything one run produced, as values. Times in seconds, bandwidths in bytes/s.
struct RunResult {
  std::string family;
  std::string variant;
  ParamSet problem;  // parameters with ParamRole::Problem
  ParamSet launch;   // parameters with ParamRole::Launch
  ParamSet derived;  // what the variant computed from them: grid, vector width used, ...
  TimingMode mode = TimingMode::Cold;
  L2Flush flush = L2Flush::WriteRead;
  // Seconds subtracted from every event sample: the time of an event pair with nothing between
  // them, measured in the run. 0 for runs before the subtraction (schema 5).
  double eventOverhead = 0;
  RunStatus status = RunStatus::Ok;
  std::string error;
  Verification verification;
  Summary stats;
  std::vector<double> samples;
  bool converged = false;  // relative stddev reached the target before the budget ran out
  std::uint64_t bytes = 0;
  std::optional<double> flops;  // per call, as the variant declares them (Workload::flops)
  double bandwidth = 0;
  double ceilingBandwidth = 0;  // 0 when unknown
  double peakBandwidth = 0;
  std::string deviceUuid;
  std::string appVersion;
  std::int64_t startedAt = 0;  // unix milliseconds
  std::vector<Metric> metrics;
  std::vector<std::size_t>
      throttledSamples;  // indices of samples taken while clocks were held down
  std::string notice;    // why part of the measurement was skipped (counters unreadable, say)
  std::optional<KernelCode> code;  // a user's kernel: what ran

  // The kernels the metrics were read for, in order of first appearance.
  std::vector<std::string> kernels() const;

  // The run-level value of a metric, if the run has it.
  const Metric* metric(std::string_view name, std::string_view kernel = {}) const {
    for (const auto& m : metrics)
      if (m.name == name && m.kernel == kernel) return &m;
    return nullptr;
  }
  // The run's own value of a metric; none where it has none.
  std::optional<double> metricValue(std::string_view name) const {
    if (const Metric* m = metric(name)) return m->value;
    return std::nullopt;
  }

  // "dtype" from the problem, empty when the family has none.
  std::string dtype() const { return problem.has("dtype") ? problem.get("dtype") : std::string(); }
  // A problem or launch parameter's value; empty when the run has no such parameter.
  std::string param(std::string_view name) const {
    if (problem.has(name)) return problem.get(name);
    return launch.has(name) ? launch.get(name) : std::string();
  }
  // Problem and launch parameters together, as a variant resolves them.
  ParamSet params() const {
    ParamSet all = problem;
    for (const auto& [name, value] : launch.values()) all.set(name, value);
    return all;
  }
  double ceilingFraction() const { return ceilingBandwidth > 0 ? bandwidth / ceilingBandwidth : 0; }
  double peakFraction() const { return peakBandwidth > 0 ? bandwidth / peakBandwidth : 0; }
};

}  // namespace kwb
