#pragma once

#include <QAbstractTableModel>
#include <QThread>

#include <atomic>
#include <memory>
#include <vector>

#include "db/exporter.h"
#include "db/historyfilter.h"
#include "widgets/historyrow.h"

namespace kwb {

class HistoryLoader;

// The stored runs, filtered and sorted by a HistoryLoader in its own thread; this model only
// swaps in the finished snapshot, so a history of 100 000 runs never stalls the window.
class HistoryModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    TimeColumn,
    KernelColumn,
    DtypeColumn,
    ProblemColumn,
    LaunchColumn,
    DeviceColumn,
    StatusColumn,
    MedianColumn,
    BandwidthColumn,
    CeilingColumn,
    TagsColumn,
    ColumnCount
  };
  static_assert(ColumnCount == kHistoryColumns.size());
  enum Role { IdRole = Qt::UserRole + 1 };

  explicit HistoryModel(const QString& databasePath, QObject* parent = nullptr);
  ~HistoryModel() override;

  void setFilter(const HistoryFilter& filter);
  const HistoryFilter& filter() const { return filter_; }
  void reload();
  bool loading() const { return loading_; }
  const HistoryRow& row(int index) const { return (*rows_)[static_cast<std::size_t>(index)]; }
  const HistorySnapshot& snapshot() const { return rows_; }

  // Changes go to the loader's thread; the model reloads when they are done.
  void deleteRuns(const QList<qint64>& ids);
  void addTag(const QList<qint64>& ids, const QString& tag);
  void addNote(const QList<qint64>& ids, const QString& text);
  void exportRuns(const QList<qint64>& ids, const QString& path, ExportFormat format);

  // Sorts rows by a column, as the loader does before handing a snapshot over.
  static void sortRows(std::vector<HistoryRow>& rows, int column, Qt::SortOrder order);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;
  void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

 signals:
  void loadingChanged(bool loading);
  // Every run matching the filter is in; partial loads only update the rows.
  void loaded(int rows, double seconds);
  void choicesLoaded(const QStringList& families, const QStringList& variants,
                     const QStringList& dtypes);
  void exported(const QString& path, int count);
  void failed(const QString& message);

 private:
  void onLoaded(quint64 generation, const HistorySnapshot& rows, double seconds, bool complete);

  QThread thread_;
  // Shared with the loader, which abandons a load once a newer one is asked for; declared before
  // the loader, which is given it.
  std::shared_ptr<std::atomic<quint64>> generation_ = std::make_shared<std::atomic<quint64>>(0);
  HistoryLoader* loader_;
  HistorySnapshot rows_;
  HistoryFilter filter_;
  int sortColumn_ = TimeColumn;
  Qt::SortOrder sortOrder_ = Qt::DescendingOrder;
  bool loading_ = false;
};

}  // namespace kwb
