#include "widgets/historyrow.h"

namespace kwb {

HistoryRow toHistoryRow(const RunRecord& record) {
  const RunResult& r = record.result;
  HistoryRow row;
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
