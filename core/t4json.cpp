#include "core/t4json.h"

#include <charconv>
#include <ctime>

#include "core/metricrollup.h"

namespace kwb {
namespace {

using nlohmann::ordered_json;

ordered_json parameterValue(const std::string& text) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc() && end == text.data() + text.size()) return value;
  return text;
}

std::string isoTime(std::int64_t unixMs) {
  const std::time_t seconds = static_cast<std::time_t>(unixMs / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string invalidity(RunStatus status) {
  switch (status) {
    case RunStatus::Ok: return "correct";
    case RunStatus::VerificationFailed: return "correctness";
    case RunStatus::Failed:
    case RunStatus::Cancelled: break;
  }
  return "runtime";
}

}  // namespace

ordered_json toT4Json(const std::vector<RunRecord>& records) {
  ordered_json results = ordered_json::array();
  for (const auto& record : records) {
    const RunResult& r = record.result;
    ordered_json configuration = ordered_json::object();
    for (const ParamSet* params : {&r.problem, &r.launch})
      for (const auto& [name, value] : params->values())
        configuration[name] = parameterValue(value);
    ordered_json runtimes = ordered_json::array();
    for (double sample : r.samples) runtimes.push_back(sample * 1e3);
    ordered_json measurements = ordered_json::array();
    const bool timed = r.status == RunStatus::Ok && r.stats.count > 0;
    if (timed) {
      measurements.push_back({{"name", "time"}, {"value", r.stats.median * 1e3}, {"unit", "ms"}});
      if (r.bandwidth > 0)
        measurements.push_back(
            {{"name", "bandwidth"}, {"value", r.bandwidth * 1e-9}, {"unit", "GB/s"}});
      if (const Metric* traced = r.metric(kActivityMedian))
        measurements.push_back(
            {{"name", "traced_time"}, {"value", traced->value * 1e3}, {"unit", "ms"}});
    }
    results.push_back({{"timestamp", isoTime(r.startedAt)},
                       {"configuration", std::move(configuration)},
                       {"objectives", ordered_json::array({"time"})},
                       {"times", {{"runtimes", std::move(runtimes)}}},
                       {"invalidity", invalidity(r.status)},
                       {"correctness", r.status == RunStatus::Ok ? 1 : 0},
                       {"measurements", std::move(measurements)},
                       {"kernel", r.code ? r.code->file : r.family + "/" + r.variant},
                       {"device", record.deviceName},
                       {"run", record.id}});
  }
  return {{"schema_version", "1.0.0"}, {"results", std::move(results)}};
}

}  // namespace kwb
