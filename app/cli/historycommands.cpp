// `kwb history`, `kwb export`, `kwb import` and `kwb db merge`.
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "app/cli/clicontext.h"
#include "app/cli/exitcodes.h"
#include "app/cli/table.h"
#include "core/nvbenchjson.h"
#include "core/resultcolumns.h"
#include "core/t4json.h"
#include "db/database.h"
#include "db/databasemerger.h"
#include "db/exporter.h"
#include "db/nvbenchimport.h"
#include "db/runstore.h"

namespace kwb {

int historyCommand(CliContext& context, const FilterCliOptions& options) {
  auto store = context.openStore();
  const HistoryFilter filter = options.filter();
  const std::vector<RunRecord> records = store->query(filter);
  if (context.global.json) {
    exportRuns(context.out, records, ExportFormat::Json);
    return kExitOk;
  }
  if (records.empty()) {
    context.out << "no runs match in " << store->path() << "\n";
    return kExitOk;
  }
  const auto columns =
      resultColumns({"id", "started_at", "device", "kernel", "problem", "launch", "mode",
                     "time_median_s", "bandwidth_Bps", "ceiling_fraction", "status", "tags"});
  std::vector<std::string> headers;
  for (const ResultColumn* column : columns) headers.emplace_back(column->header);
  Table table(headers);
  for (const auto& record : records) {
    std::vector<std::string> row;
    for (const ResultColumn* column : columns) row.push_back(cellText(*column, record));
    table.addRow(std::move(row));
  }
  table.print(context.out);
  const std::size_t total = store->count(filter);
  if (total > records.size())
    context.out << records.size() << " of " << total << " matching runs; --limit 0 shows all\n";
  return kExitOk;
}

namespace {

// The interchange formats: nvbench's JSON (sample files beside -o FILE with --samples) and Kernel
// Tuner's T4 results (per-sample runtimes always).
int exportInterchange(CliContext& context, RunStore& store, std::vector<RunRecord> records,
                      const std::string& format, const std::string& output, bool withSamples) {
  const bool toFile = !output.empty() && output != "-";
  if (format == "nvbench" && withSamples && !toFile)
    throw Error(ErrorKind::Usage,
                "--samples with --format nvbench writes sample files beside "
                "the JSON: name it with -o FILE");
  if (format == "t4" || withSamples)
    for (auto& record : records) record = *store.run(record.id);
  const nlohmann::ordered_json document =
      format == "t4" ? toT4Json(records)
                     : toNvbenchJson(records, store.devices(), withSamples ? output : "");
  if (!toFile) {
    context.out << document.dump(2) << "\n";
    return kExitOk;
  }
  std::ofstream file(output, std::ios::trunc);
  file << document.dump(2) << "\n";
  if (!file.flush()) throw Error(ErrorKind::Database, "could not write '" + output + "'");
  context.err << "exported " << records.size() << " runs to " << output << "\n";
  return kExitOk;
}

}  // namespace

int exportCommand(CliContext& context, const FilterCliOptions& options, const std::string& format,
                  const std::string& output, bool withSamples) {
  const bool interchange = format == "nvbench" || format == "t4";
  ExportFormat exportFormat = ExportFormat::Json;
  if (format == "csv")
    exportFormat = ExportFormat::Csv;
  else if (format != "json" && !interchange)
    throw Error(ErrorKind::Usage,
                "--format '" + format + "' is not allowed; allowed: csv, json, nvbench, t4");
  if (withSamples && (exportFormat == ExportFormat::Csv || format == "t4"))
    throw Error(ErrorKind::Usage, "--samples needs --format json or nvbench");
  if (std::filesystem::is_directory(output))
    throw Error(ErrorKind::Usage, "-o '" + output + "' is a folder; name a file to write");

  auto store = context.openStore();
  std::vector<RunRecord> records = store->query(options.filter());
  if (interchange)
    return exportInterchange(context, *store, std::move(records), format, output, withSamples);
  if (withSamples)
    for (auto& record : records) record = *store->run(record.id);

  if (output.empty() || output == "-") {
    exportRuns(context.out, records, exportFormat);
    return kExitOk;
  }
  exportRuns(output, records, exportFormat);
  context.err << "exported " << records.size() << " runs to " << output << "\n";
  return kExitOk;
}

int importCommand(CliContext& context, const std::vector<std::string>& files) {
  auto store = context.openStore();
  // All or nothing: a file that cannot be read leaves the history as it was.
  Transaction transaction(store->database());
  std::vector<ImportOutcome> outcomes;
  for (const auto& file : files) outcomes.push_back(importNvbench(*store, file));
  transaction.commit();
  nlohmann::json imported = nlohmann::json::array();
  for (std::size_t i = 0; i < files.size(); ++i) {
    const ImportOutcome& o = outcomes[i];
    imported.push_back({{"file", files[i]},
                        {"version", o.version},
                        {"runs", o.runs},
                        {"duplicates", o.duplicates},
                        {"skipped", o.skipped},
                        {"devices", o.devices}});
    if (!context.global.json)
      context.out << files[i] << " (nvbench JSON " << o.version << "): " << o.runs
                  << " runs added, " << o.duplicates << " already there, " << o.skipped
                  << " states without GPU times, " << o.devices << " device"
                  << (o.devices == 1 ? "" : "s") << "\n";
  }
  if (context.global.json)
    context.out << nlohmann::json{{"into", store->path()}, {"imported", imported}}.dump(2) << "\n";
  else
    context.out << "into " << store->path() << " as family \"" << kImportedFamily
                << "\"; `kwb history --family " << kImportedFamily << "` lists them\n";
  return kExitOk;
}

int mergeCommand(CliContext& context, const std::vector<std::string>& sources) {
  auto store = context.openStore();
  // Each source once, and never the target itself, however the paths are spelled.
  for (std::size_t i = 0; i < sources.size(); ++i) {
    std::error_code error;
    if (std::filesystem::equivalent(sources[i], store->path(), error))
      throw Error(ErrorKind::Usage, "'" + sources[i] + "' is the history being merged into (" +
                                        store->path() + "); name other databases");
    for (std::size_t j = 0; j < i; ++j)
      if (std::filesystem::equivalent(sources[i], sources[j], error))
        throw Error(ErrorKind::Usage, "'" + sources[i] + "' and '" + sources[j] +
                                          "' are the same file; name it once");
  }
  // All or nothing: a source that cannot be merged leaves the target as it was.
  Transaction transaction(store->database());
  std::vector<MergeOutcome> outcomes;
  for (const auto& source : sources) outcomes.push_back(mergeDatabase(*store, source));
  transaction.commit();

  nlohmann::json merged = nlohmann::json::array();
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const MergeOutcome& o = outcomes[i];
    merged.push_back({{"source", sources[i]},
                      {"runs", o.runs},
                      {"duplicates", o.duplicates},
                      {"devices", o.devices}});
    if (!context.global.json)
      context.out << sources[i] << ": " << o.runs << " runs added, " << o.duplicates
                  << " already there, " << o.devices << " device" << (o.devices == 1 ? "" : "s")
                  << "\n";
  }
  if (context.global.json)
    context.out << nlohmann::json{{"into", store->path()}, {"merged", merged}}.dump(2) << "\n";
  else
    context.out << "into " << store->path() << "\n";
  return kExitOk;
}

}  // namespace kwb
