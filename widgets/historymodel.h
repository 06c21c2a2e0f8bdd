#pragma once

#include <QAbstractTableModel>
#include <QThread>

#include <atomic>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "db/exporter.h"
#include "db/historyfilter.h"
#include "widgets/historyloader.h"
#include "widgets/historyrow.h"

namespace kwb {

// The stored runs a filter keeps, in the order of a column: a HistoryLoader in its own thread
// finds their ids (SQL-side, through indexes) and reads the rows a page at a time as the view
// asks for them, so a history of a million runs opens, filters and sorts without the window
// waiting and without holding more than the pages on show.
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
  // Reads the history again, the filter menus' values too: it changed.
  void reload();
  bool loading() const { return loading_; }
  // The runs shown, in table order.
  const std::vector<std::int64_t>& ids() const { return *ids_; }
  // A row's cells once its page is in; nullptr while it loads (asking for it).
  const HistoryRow* cachedRow(int row) const;

  // Changes go to the loader's thread; the model reloads when they are done.
  void deleteRuns(const QList<qint64>& ids);
  void addTag(const QList<qint64>& ids, const QString& tag);
  void addNote(const QList<qint64>& ids, const QString& text);
  void exportRuns(const QList<qint64>& ids, const QString& path, ExportFormat format);
  // Runs to plot, read off the GUI thread and answered by seriesLoaded or comparisonLoaded; a
  // newer request of either kind drops an older one's answer.
  void requestSeries(std::vector<std::int64_t> ids);
  void requestComparison(std::vector<std::int64_t> ids);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;
  void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

 signals:
  void loadingChanged(bool loading);
  // The filter's runs are counted and the first page is in.
  void loaded(int rows, double seconds);
  void choicesLoaded(const QStringList& families, const QStringList& variants,
                     const QStringList& dtypes);
  void seriesLoaded(const kwb::HistorySeriesSet& series);
  void comparisonLoaded(const kwb::HistoryComparison& comparison);
  void exported(const QString& path, int count);
  void failed(const QString& message);

 private:
  void onLoaded(quint64 generation, const HistoryIds& ids, const HistoryRows& firstPage,
                double seconds);
  void onPage(quint64 generation, int page, const HistoryRows& rows);
  void requestPage(int page) const;
  // Asks for the runs of the filter and sort.
  void query();

  QThread thread_;
  // Shared with the loader, which skips work for an older generation; declared before the
  // loader, which is given it.
  std::shared_ptr<std::atomic<quint64>> generation_ = std::make_shared<std::atomic<quint64>>(0);
  HistoryLoader* loader_;
  HistoryIds ids_;
  struct Page {
    HistoryRows rows;
    quint64 used = 0;  // when last shown, to drop the page shown longest ago
  };
  // Pages of kPageRows rows, read as the view asks: data() is const, the cache is not.
  mutable std::unordered_map<int, Page> pages_;
  mutable std::unordered_set<int> pending_;
  mutable quint64 clock_ = 0;
  quint64 plotRequest_ = 0;
  HistoryFilter filter_;
  int sortColumn_ = TimeColumn;
  Qt::SortOrder sortOrder_ = Qt::DescendingOrder;
  bool loading_ = false;
};

}  // namespace kwb
