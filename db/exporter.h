#pragma once

#include <ostream>
#include <vector>

#include "db/runstore.h"

namespace kwb {

enum class ExportFormat { Csv, Json };

// Runs as CSV (one row each, a header first; for spreadsheets) or as a JSON array (full
// results, samples included when the records carry them; for scripts).
void exportRuns(std::ostream& out, const std::vector<RunRecord>& records, ExportFormat format);

}  // namespace kwb
