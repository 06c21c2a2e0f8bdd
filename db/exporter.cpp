#include "db/exporter.h"

#include <cstdio>
#include <fstream>

#include "core/error.h"
#include "core/jsoncodec.h"
#include "core/resultcolumns.h"

namespace kwb {
namespace {

// Text a spreadsheet would run as a formula (=, +, -, @, tab or carriage return first: a tag or
// note can arrive through a merge) starts with a quote mark, as OWASP recommends; then the
// field is quoted where CSV needs it.
std::string csvField(const std::string& raw) {
  const bool formula =
      !raw.empty() && std::string_view("=+-@\t\r").find(raw[0]) != std::string_view::npos;
  const std::string text = formula ? "'" + raw : raw;
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

// The raw values, as the columns' keys name them: seconds, bytes/s and fractions unformatted.
std::string csvCell(const CellValue& value) {
  if (const auto* i = std::get_if<std::int64_t>(&value)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&value)) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", *d);
    return text;
  }
  if (const auto* s = std::get_if<std::string>(&value)) return csvField(*s);
  return {};
}

void writeCsv(std::ostream& out, const std::vector<RunRecord>& records) {
  const auto columns = resultColumns({"id",
                                      "started_at",
                                      "device",
                                      "family",
                                      "variant",
                                      "dtype",
                                      "problem",
                                      "launch",
                                      "derived",
                                      "mode",
                                      "status",
                                      "samples",
                                      "time_min_s",
                                      "time_median_s",
                                      "time_mean_s",
                                      "time_max_s",
                                      "time_stddev_s",
                                      "bytes",
                                      "bandwidth_Bps",
                                      "ceiling_fraction",
                                      "peak_fraction",
                                      "verify_rel_error",
                                      "verify_passed",
                                      "error",
                                      "tags",
                                      "app_version"});
  for (std::size_t c = 0; c < columns.size(); ++c) out << (c ? "," : "") << columns[c]->key;
  out << '\n';
  for (const auto& record : records) {
    for (std::size_t c = 0; c < columns.size(); ++c)
      out << (c ? "," : "") << csvCell(columns[c]->value(record));
    out << '\n';
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
