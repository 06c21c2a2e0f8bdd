#include "core/gpustate.h"

#include <algorithm>
#include <string>

#include "core/stats.h"

namespace kwb {
namespace {

std::vector<double> finite(const std::vector<GpuStateSample>& samples,
                           double GpuStateSample::*field) {
  std::vector<double> out;
  for (const auto& s : samples)
    if (std::isfinite(s.*field)) out.push_back(s.*field);
  return out;
}

}  // namespace

std::optional<double> smClockOf(const RunResult& run) {
  for (const char* name : {"gpu.sm_clock", "gpu.sm_clock_measured"})
    if (const Metric* m = run.metric(name)) return m->value;
  return std::nullopt;
}

std::vector<Metric> gpuStateMetrics(const std::vector<GpuStateSample>& samples,
                                    GpuStateSource source, std::size_t throttledSamples) {
  std::vector<Metric> out;
  if (samples.empty()) return out;
  // A clock the kernel measured is named apart from the one the driver reports.
  const std::string clock =
      source == GpuStateSource::Nvml ? "gpu.sm_clock" : "gpu.sm_clock_measured";
  if (const auto sm = finite(samples, &GpuStateSample::smClockMhz); !sm.empty()) {
    const Summary s = summarize(sm);
    out.push_back({clock, s.median, "MHz", ""});
    out.push_back({clock + "_min", s.min, "MHz", ""});
  }
  if (const auto mem = finite(samples, &GpuStateSample::memClockMhz); !mem.empty())
    out.push_back({"gpu.mem_clock", summarize(mem).median, "MHz", ""});
  if (const auto t = finite(samples, &GpuStateSample::temperatureC); !t.empty())
    out.push_back({"gpu.temperature", *std::max_element(t.begin(), t.end()), "C", ""});
  if (const auto p = finite(samples, &GpuStateSample::powerW); !p.empty())
    out.push_back({"gpu.power", summarize(p).mean, "W", ""});
  if (const auto e = finite(samples, &GpuStateSample::energyJ); e.size() >= 2)
    out.push_back({"gpu.energy", e.back() - e.front(), "J", ""});
  out.push_back({"gpu.state_samples", static_cast<double>(samples.size()), "", ""});
  out.push_back({"gpu.throttled_samples", static_cast<double>(throttledSamples), "", ""});
  return out;
}

}  // namespace kwb
