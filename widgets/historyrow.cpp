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
  HistoryRow row;
  row.id = record.id;
  const auto& columns = historyColumns();
  for (std::size_t c = 0; c < columns.size(); ++c)
    row.cells[c] = QString::fromStdString(columns[c]->text(record));
  return row;
}

}  // namespace kwb
