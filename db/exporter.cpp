#include "db/exporter.h"

#include <cstdio>
#include <fstream>

#include "core/error.h"
#include "core/jsoncodec.h"
#include "core/timeformat.h"

namespace kwb {
namespace {

std::string csvField(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

void writeCsv(std::ostream& out, const std::vector<RunRecord>& records) {
  out << "id,started_at,device,family,variant,dtype,problem,launch,derived,mode,status,"
         "samples,time_min_s,time_median_s,time_mean_s,time_max_s,time_stddev_s,bytes,"
         "bandwidth_Bps,ceiling_fraction,peak_fraction,verify_rel_error,verify_passed,error,"
         "tags,app_version\n";
  for (const auto& record : records) {
    const RunResult& r = record.result;
    std::string tags;
    for (const auto& tag : record.tags) tags += (tags.empty() ? "" : ";") + tag;
    out << record.id << ',' << formatTimestamp(r.startedAt) << ',' << csvField(record.deviceName)
        << ',' << csvField(r.family) << ',' << csvField(r.variant) << ',' << csvField(r.dtype())
        << ',' << csvField(r.problem.toText()) << ',' << csvField(r.launch.toText()) << ','
        << csvField(r.derived.toText()) << ',' << toString(r.mode) << ',' << toString(r.status)
        << ',' << r.stats.count << ',' << number(r.stats.min) << ',' << number(r.stats.median)
        << ',' << number(r.stats.mean) << ',' << number(r.stats.max) << ','
        << number(r.stats.stddev) << ',' << r.bytes << ',' << number(r.bandwidth) << ','
        << number(r.ceilingFraction()) << ',' << number(r.peakFraction()) << ','
        << number(r.verification.relError) << ',' << (r.verification.passed ? 1 : 0) << ','
        << csvField(r.error) << ',' << csvField(tags) << ',' << csvField(r.appVersion) << '\n';
  }
}

void writeJson(std::ostream& out, const std::vector<RunRecord>& records) {
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& record : records) {
    nlohmann::json run = toJson(record.result, !record.result.samples.empty());
    run["id"] = record.id;
    run["device"] = record.deviceName;
    run["tags"] = record.tags;
    run["sweep_id"] = record.sweepId ? nlohmann::json(*record.sweepId) : nlohmann::json(nullptr);
    runs.push_back(std::move(run));
  }
  out << runs.dump(2) << '\n';
}

}  // namespace

void exportRuns(std::ostream& out, const std::vector<RunRecord>& records, ExportFormat format) {
  if (format == ExportFormat::Csv)
    writeCsv(out, records);
  else
    writeJson(out, records);
}

}  // namespace kwb

namespace kwb {

void exportRuns(const std::string& path, const std::vector<RunRecord>& records,
                ExportFormat format) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw Error(ErrorKind::Database, "cannot write " + path);
  exportRuns(file, records, format);
  file.close();
  if (!file) throw Error(ErrorKind::Database, "writing " + path + " failed");
}

}  // namespace kwb
