#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "db/runstore.h"

namespace kwb {

enum class ExportFormat { Csv, Json };

// Runs as CSV (one row each, a header first; for spreadsheets) or as a JSON array (full
// results, samples included when the records carry them; for scripts).
void exportRuns(std::ostream& out, const std::vector<RunRecord>& records, ExportFormat format);
// The same into a file, replaced if it exists; Error(Database) when it cannot be written.
void exportRuns(const std::string& path, const std::vector<RunRecord>& records,
                ExportFormat format);

}  // namespace kwb
