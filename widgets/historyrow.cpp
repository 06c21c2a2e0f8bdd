#include "widgets/historyrow.h"

#include "core/resultcolumns.h"

namespace kwb {

HistoryRow toHistoryRow(const RunRecord& record) {
  const RunResult& r = record.result;
  HistoryRow row;
  static const auto columns = [] {
    std::vector<const ResultColumn*> out;
    for (const auto key : kHistoryColumns) out.push_back(&resultColumn(key));
    return out;
  }();
  for (std::size_t c = 0; c < columns.size(); ++c) {
    row.cells[c] = QString::fromStdString(columns[c]->text(record));
    if (columns[c]->numeric) row.sortValues[c] = sortValue(columns[c]->value(record));
  }
  row.id = record.id;
  row.startedAt = r.startedAt;
  row.kernel = QString::fromStdString(r.family + "/" + r.variant);
  row.dtype = QString::fromStdString(r.dtype());
  row.problem = QString::fromStdString(r.problem.toText());
  row.series = row.kernel + "  " + row.problem;  // made here, off the GUI thread
  row.launch = QString::fromStdString(r.launch.toText());
  row.device = QString::fromStdString(record.deviceName);
  row.status = QString::fromStdString(std::string(toString(r.status)));
  QStringList tags;
  for (const auto& tag : record.tags) tags << QString::fromStdString(tag);
  row.tags = tags.join(", ");
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
