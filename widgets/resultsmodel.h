#pragma once

#include <QAbstractTableModel>

#include <set>
#include <string>
#include <vector>

#include "core/resultcolumns.h"
#include "core/runresult.h"

namespace kwb {

// The results of the current run or sweep, one row per point, as they stream in from the worker.
class ResultsModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    PointColumn,
    ParamsColumn,
    StatusColumn,
    MedianColumn,
    TracedColumn,    // the kernels' own time per call, from activity records
    WallColumn,      // the host's time to issue a call and wait for it
    LaunchesColumn,  // host API launches per call
    MinColumn,
    MaxColumn,
    SpreadColumn,  // relative standard deviation
    BandwidthColumn,
    CeilingColumn,
    PeakColumn,
    VerificationColumn,
    ColumnCount
  };
  // SortRole gives numbers for the numeric columns, so that sorting is by value, not by text.
  enum Role { SortRole = Qt::UserRole + 1 };

  using QAbstractTableModel::QAbstractTableModel;

  void clear();
  void append(const RunResult& run, std::int64_t runId = 0);
  const std::vector<RunResult>& runs() const { return runs_; }
  std::int64_t runId(int row) const;  // 0 where the run was not stored

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  QString paramsText(const RunResult& run) const;
  // The result column shown in a column past ParamsColumn.
  static const ResultColumn& column(int section);

  std::vector<RunResult> runs_;
  std::vector<std::int64_t> ids_;
  // Parameters whose value differs between the runs: what a sweep's rows show, so that the
  // column says what changed instead of repeating everything else.
  std::set<std::string> varying_;
};

}  // namespace kwb
