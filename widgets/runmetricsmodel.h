#pragma once

#include <QAbstractTableModel>

#include "core/runresult.h"

namespace kwb {

// One run's metrics as a table: hardware counters, then the traced kernel durations, then the
// GPU state during timing; run-level values first. Each kernel's own values are listed only
// where the run launched more than one kernel (else they repeat the run's).
class RunMetricsModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { NameColumn, KernelColumn, ValueColumn, ColumnCount };
  enum Role { SortRole = Qt::UserRole + 1 };

  using QAbstractTableModel::QAbstractTableModel;

  // Takes a copy; an empty run clears the table.
  void setRun(const RunResult& run);
  const RunResult& run() const { return run_; }
  // The kernels the run's metrics were read for, in order of first appearance.
  QStringList kernels() const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  const Metric& metricAt(int row) const;

  RunResult run_;
  std::vector<std::size_t> rows_;  // indices into run_.metrics, in display order
};

}  // namespace kwb
