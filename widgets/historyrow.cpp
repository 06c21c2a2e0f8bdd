#include "widgets/historyrow.h"

#include "core/resultcolumns.h"

namespace kwb {

const std::array<const ResultColumn*, kHistoryColumns.size()>& historyColumns() {
  static const auto columns = [] {
    std::array<const ResultColumn*, kHistoryColumns.size()> out{};
    for (std::size_t c = 0; c < out.size(); ++c) out[c] = &resultColumn(kHistoryColumns[c]);
    return out;
  }();
  return columns;
}

HistoryRow toHistoryRow(const RunRecord& record) {
  const RunResult& r = record.result;
  HistoryRow row;
  const auto& columns = historyColumns();
  for (std::size_t c = 0; c < columns.size(); ++c) {
    row.cells[c] = QString::fromStdString(columns[c]->text(record));
    if (columns[c]->numeric) row.sortValues[c] = sortValue(columns[c]->value(record));
  }
  row.id = record.id;
  row.startedAt = r.startedAt;
  row.kernel = row.cells[historyColumn("kernel")];
  row.dtype = row.cells[historyColumn("dtype")];
  row.problem = row.cells[historyColumn("problem")];
  row.launch = row.cells[historyColumn("launch")];
  row.device = row.cells[historyColumn("device")];
  row.series = row.kernel + "  " + row.problem;  // made here, off the GUI thread
  if (r.stats.count > 0) {
    row.median = r.stats.median;
    row.min = r.stats.min;
    row.max = r.stats.max;
    row.bandwidth = r.bandwidth;
    row.ceilingFraction = r.ceilingFraction();
  }
  return row;
}

}  // namespace kwb
