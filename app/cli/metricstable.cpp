#include "app/cli/metricstable.h"

#include "core/measurementquality.h"

#include <algorithm>
#include <cstdio>

#include "app/cli/table.h"
#include "core/format.h"
#include "core/traffic.h"

namespace kwb {
namespace {

// GPU state and traced durations have lines and columns of their own.
bool isHardwareMetric(const Metric& m) {
  return m.name.rfind("gpu.", 0) != 0 && m.name.rfind("activity.", 0) != 0;
}

std::string rowLabel(const Metric& m) {
  return m.kernel.empty() ? m.name : "  " + m.name + " [" + m.kernel + "]";
}

}  // namespace

void printMetricsTable(std::ostream& out, const std::vector<const RunResult*>& runs,
                       const std::vector<std::string>& labels) {
  // Rows in the order of the first run that has each one: run-level values, then per kernel.
  std::vector<std::pair<std::string, std::string>> rows;  // name, kernel
  std::vector<std::string> units;
  for (bool kernels : {false, true})
    for (const RunResult* r : runs) {
      if (kernels && r->kernels().size() < 2) continue;  // the run's rows already say it
      for (const auto& m : r->metrics) {
        if (!isHardwareMetric(m) || m.kernel.empty() == kernels) continue;
        const std::pair key{m.name, m.kernel};
        if (std::find(rows.begin(), rows.end(), key) == rows.end()) {
          rows.push_back(key);
          units.push_back(m.unit);
        }
      }
    }
  if (rows.empty()) return;
  std::vector<std::string> headers{"metric"};
  headers.insert(headers.end(), labels.begin(), labels.end());
  Table table(headers);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& [name, kernel] = rows[i];
    std::vector<std::string> cells{rowLabel({name, 0, units[i], kernel})};
    for (const RunResult* r : runs) {
      const Metric* m = r->metric(name, kernel);
      cells.push_back(m ? formatMetricValue(m->value, m->unit) : "-");
    }
    table.addRow(std::move(cells));
  }
  table.print(out);
}

void printQuality(std::ostream& out, const RunResult& run) {
  const MeasurementQuality quality = assessQuality(run);
  std::string line;
  for (const auto& [label, text] : qualityRows(run, quality))
    line += (line.empty() ? "" : "; ") + label + " " + text;
  out << "quality: " << line << "\n";
  for (const auto& doubt : quality.doubts) out << "  doubt: " << doubt << "\n";
  if (const auto traffic = checkTraffic(run); traffic && !traffic->reading.empty())
    out << "  traffic: " << traffic->reading << "\n";
}

std::string gpuStateLine(const RunResult& run) {
  const auto value = [&](const char* name) {
    const Metric* m = run.metric(name);
    return m ? m->value : -1.0;
  };
  const bool nvml = run.metric("gpu.sm_clock") != nullptr;
  const double clock = value(nvml ? "gpu.sm_clock" : "gpu.sm_clock_measured");
  if (clock < 0) return {};
  char text[256];
  int n =
      std::snprintf(text, sizeof text, "SM %.0f MHz%s (min %.0f)", clock, nvml ? "" : " measured",
                    value(nvml ? "gpu.sm_clock_min" : "gpu.sm_clock_measured_min"));
  if (value("gpu.mem_clock") >= 0)
    n += std::snprintf(text + n, sizeof text - n, ", memory %.0f MHz", value("gpu.mem_clock"));
  if (value("gpu.temperature") >= 0)
    n += std::snprintf(text + n, sizeof text - n, ", %.0f C", value("gpu.temperature"));
  if (value("gpu.power") >= 0)
    n += std::snprintf(text + n, sizeof text - n, ", %.0f W", value("gpu.power"));
  if (value("gpu.energy") >= 0)
    n += std::snprintf(text + n, sizeof text - n, ", %.2f J", value("gpu.energy"));
  std::snprintf(text + n, sizeof text - n, "; %zu of %zu samples throttled",
                run.throttledSamples.size(), run.samples.size());
  return text;
}

}  // namespace kwb
