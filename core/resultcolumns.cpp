#include "core/resultcolumns.h"

#include <cctype>
#include <cmath>
#include <cstdio>

#include "core/error.h"
#include "core/format.h"
#include "core/metricrollup.h"
#include "core/timeformat.h"
#include "core/valueparse.h"

namespace kwb {
namespace {

using R = const RunRecord&;

bool timed(R r) {
  return r.result.stats.count > 0;
}
std::string secondsText(const CellValue& v) {
  return std::holds_alternative<double>(v) ? formatSeconds(std::get<double>(v)) : std::string();
}
// A statistic of the samples, in seconds; none where the run was not timed.
template <double Summary::*field>
CellValue timeOf(R r) {
  return timed(r) ? CellValue(r.result.stats.*field) : CellValue();
}
template <double Summary::*field>
std::string timeText(R r) {
  return secondsText(timeOf<field>(r));
}
std::string percentText(const CellValue& v) {
  return std::holds_alternative<double>(v) ? formatPercent(std::get<double>(v)) : std::string();
}
// The bandwidth as a fraction of the copy ceiling, and of the peak, where both are known.
CellValue ceilingOf(R r) {
  return timed(r) && r.result.ceilingBandwidth > 0 ? CellValue(r.result.ceilingFraction())
                                                   : CellValue();
}
CellValue peakOf(R r) {
  return timed(r) && r.result.peakBandwidth > 0 ? CellValue(r.result.peakFraction()) : CellValue();
}
CellValue metricOf(R r, std::string_view name) {
  const Metric* m = r.result.metric(name);
  return m ? CellValue(m->value) : CellValue();
}
std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

const std::vector<ResultColumn> kColumns = {
    {"id", "run", "The run's number in the history", true,
     [](R r) { return r.id ? CellValue(r.id) : CellValue(); },
     [](R r) { return r.id ? std::to_string(r.id) : std::string(); }},
    {"started_at", "started (UTC)", "When the run started", false,
     [](R r) { return CellValue(formatTimestamp(r.result.startedAt)); },
     [](R r) { return formatTimestamp(r.result.startedAt); }},
    {"device", "device", "The GPU it ran on", false, [](R r) { return CellValue(r.deviceName); },
     [](R r) { return r.deviceName; }},
    {"kernel", "kernel", "Family and variant", false,
     [](R r) { return CellValue(r.result.family + "/" + r.result.variant); },
     [](R r) { return r.result.family + "/" + r.result.variant; }},
    {"family", "family", "The kernel family", false, [](R r) { return CellValue(r.result.family); },
     [](R r) { return r.result.family; }},
    {"variant", "variant", "The variant of its family", false,
     [](R r) { return CellValue(r.result.variant); }, [](R r) { return r.result.variant; }},
    {"dtype", "dtype", "The element type", false, [](R r) { return CellValue(r.result.dtype()); },
     [](R r) { return r.result.dtype(); }},
    {"problem", "problem", "The problem's parameters", false,
     [](R r) { return CellValue(r.result.problem.toText()); },
     [](R r) { return r.result.problem.toText(); }},
    {"launch", "launch", "The launch configuration", false,
     [](R r) { return CellValue(r.result.launch.toText()); },
     [](R r) { return r.result.launch.toText(); }},
    {"derived", "derived", "What the variant derived on the device: grid, waves, pack used", false,
     [](R r) { return CellValue(r.result.derived.toText()); },
     [](R r) { return r.result.derived.toText(); }},
    {"mode", "mode", "cold: L2 flushed before each sample; hot: back to back", false,
     [](R r) { return CellValue(std::string(toString(r.result.mode))); },
     [](R r) { return std::string(toString(r.result.mode)); }},
    {"status", "status", "ok, failed, verification_failed or cancelled", false,
     [](R r) { return CellValue(std::string(toString(r.result.status))); },
     [](R r) { return std::string(toString(r.result.status)); }},
    {"samples", "samples", "Timed samples", true,
     [](R r) { return CellValue(static_cast<std::int64_t>(r.result.stats.count)); },
     [](R r) { return std::to_string(r.result.stats.count); }},
    {"time_min_s", "event min", "The fastest sample (CUDA events, less their own time)", true,
     timeOf<&Summary::min>, timeText<&Summary::min>},
    {"time_median_s", "event median",
     "The median sample (CUDA events, less their own time): the run's time", true,
     timeOf<&Summary::median>, timeText<&Summary::median>},
    {"time_mean_s", "event mean", "The mean of the samples", true, timeOf<&Summary::mean>,
     timeText<&Summary::mean>},
    {"time_max_s", "event max", "The slowest sample", true, timeOf<&Summary::max>,
     timeText<&Summary::max>},
    {"time_stddev_s", "std. dev.", "The samples' standard deviation", true,
     timeOf<&Summary::stddev>, timeText<&Summary::stddev>},
    {"rsd", "rsd", "Standard deviation over mean: how steady the samples were", true,
     [](R r) { return timed(r) ? CellValue(r.result.stats.relStddev()) : CellValue(); },
     [](R r) {
       char text[16];
       std::snprintf(text, sizeof text, "%.2f%%", r.result.stats.relStddev() * 100);
       return timed(r) ? std::string(text) : std::string();
     }},
    {"traced_s", "traced",
     "The kernels' own time per call from CUPTI activity records, the GPU's start and end of "
     "each kernel",
     true, [](R r) { return metricOf(r, kActivityMedian); },
     [](R r) { return secondsText(metricOf(r, kActivityMedian)); }},
    {"wall_s", "wall / call",
     "The host's time to issue one call and wait for it, L2 flushed before: what an application "
     "waits for, launch overhead included",
     true, [](R r) { return metricOf(r, kHostWall); },
     [](R r) { return secondsText(metricOf(r, kHostWall)); }},
    {"launches", "launches", "Kernels, memsets and graphs the host launches per call", true,
     [](R r) { return metricOf(r, kHostLaunches); },
     [](R r) {
       const CellValue v = metricOf(r, kHostLaunches);
       return std::holds_alternative<double>(v)
                  ? formatInteger(static_cast<std::int64_t>(std::get<double>(v)))
                  : std::string();
     }},
    {"bytes", "bytes", "The bytes the variant must move", true,
     [](R r) { return CellValue(static_cast<std::int64_t>(r.result.bytes)); },
     [](R r) { return formatBytes(static_cast<double>(r.result.bytes)); }},
    {"bandwidth_Bps", "bandwidth", "Bytes moved over the median time", true,
     [](R r) { return timed(r) ? CellValue(r.result.bandwidth) : CellValue(); },
     [](R r) { return timed(r) ? formatBandwidth(r.result.bandwidth) : std::string(); }},
    {"ceiling_fraction", "of copy ceiling",
     "Bandwidth over the device's measured copy bandwidth: the practical limit", true, ceilingOf,
     [](R r) { return percentText(ceilingOf(r)); }},
    {"peak_fraction", "of peak", "Bandwidth over the memory's theoretical peak", true, peakOf,
     [](R r) { return percentText(peakOf(r)); }},
    {"verify_rel_error", "check",
     "The output against the CPU reference in double precision: relative L2 error", true,
     [](R r) {
       return r.result.verification.checked ? CellValue(r.result.verification.relError)
                                            : CellValue();
     },
     [](R r) {
       const Verification& v = r.result.verification;
       if (!v.checked) return std::string();
       char text[48];
       std::snprintf(text, sizeof text, "%s %.1e", v.passed ? "ok" : "FAIL", v.relError);
       return std::string(text);
     }},
    {"verify_passed", "passed", "1 when the output matched the reference within tolerance", true,
     [](R r) { return CellValue(std::int64_t{r.result.verification.passed ? 1 : 0}); },
     [](R r) { return std::string(r.result.verification.passed ? "yes" : "no"); }},
    {"error", "error", "What went wrong, for a run that failed", false,
     [](R r) { return CellValue(r.result.error); }, [](R r) { return r.result.error; }},
    {"tags", "tags", "The run's tags", false, [](R r) { return CellValue(joined(r.tags)); },
     [](R r) { return joined(r.tags); }},
    {"app_version", "version", "The workbench version that ran it", false,
     [](R r) { return CellValue(r.result.appVersion); }, [](R r) { return r.result.appVersion; }},
};

}  // namespace

const std::vector<ResultColumn>& resultColumns() {
  return kColumns;
}

const ResultColumn& resultColumn(std::string_view key) {
  for (const auto& column : kColumns)
    if (column.key == key) return column;
  throw Error(ErrorKind::Internal, "no result column '" + std::string(key) + "'");
}

std::vector<const ResultColumn*> resultColumns(std::initializer_list<std::string_view> keys) {
  std::vector<const ResultColumn*> out;
  for (const auto key : keys) out.push_back(&resultColumn(key));
  return out;
}

std::string capitalized(std::string_view header) {
  std::string out(header);
  if (!out.empty()) out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  return out;
}

double sortValue(const CellValue& value) {
  if (const auto* i = std::get_if<std::int64_t>(&value)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&value)) return *d;
  if (std::holds_alternative<std::string>(value)) return std::nan("");
  return 0;
}

}  // namespace kwb
