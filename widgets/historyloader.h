#pragma once

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/runresult.h"
#include "db/exporter.h"
#include "db/historyfilter.h"
#include "widgets/compareplot.h"
#include "widgets/historypoint.h"
#include "widgets/historyrow.h"
#include "widgets/historyseries.h"

namespace kwb {

class RunStore;

// Runs side by side, the few whose samples were read judged against the first.
struct HistoryComparison {
  std::vector<HistoryPoint> points;  // in the order asked for
  ComparedRuns judged;
};

// The history's database work, off the GUI thread: lives in a thread of its own with its own
// SQLite connection. It never reads every run: a filter and sort give the matching runs' ids
// (db/historyorder.h), and rows are read a page at a time, as the table shows them.
class HistoryLoader : public QObject {
  Q_OBJECT

 public:
  // latest: the newest generation asked for; a load or page behind it is not read.
  HistoryLoader(QString databasePath, std::shared_ptr<const std::atomic<quint64>> latest);
  ~HistoryLoader() override;

  static constexpr int kPageRows = 256;
  static constexpr std::size_t kMostWithSamples = 64;

 public slots:
  // column: a kHistoryColumns position.
  void load(quint64 generation, const kwb::HistoryFilter& filter, int column, Qt::SortOrder order);
  void loadPage(quint64 generation, int page, const std::vector<std::int64_t>& ids);
  void loadSeries(quint64 request, const std::vector<std::int64_t>& ids);
  // Points for every run, judged by their samples where there are at most kMostWithSamples.
  void loadComparison(quint64 request, const std::vector<std::int64_t>& ids);
  void loadChoices();
  void deleteRuns(const QList<qint64>& ids);
  void addTag(const QList<qint64>& ids, const QString& tag);
  void addNote(const QList<qint64>& ids, const QString& text);
  // The runs in full (samples included), in the given order.
  void exportRuns(const QList<qint64>& ids, const QString& path, kwb::ExportFormat format);

 signals:
  // The runs the filter keeps, in table order, and the first page of them.
  void loaded(quint64 generation, const kwb::HistoryIds& ids, const kwb::HistoryRows& firstPage,
              double seconds);
  void pageLoaded(quint64 generation, int page, const kwb::HistoryRows& rows);
  void seriesLoaded(quint64 request, const std::shared_ptr<const kwb::HistorySeriesSet>& series);
  void comparisonLoaded(quint64 request,
                        const std::shared_ptr<const kwb::HistoryComparison>& comparison);
  void choicesLoaded(const QStringList& families, const QStringList& variants,
                     const QStringList& dtypes);
  void changed();
  void exported(const QString& path, int count);
  void failed(const QString& message);

 private:
  RunStore& store();
  // Every run in a column's order, kept while the history stays as it was.
  const std::vector<std::int64_t>& runsInOrder(std::string_view column);
  HistoryRows rows(const std::vector<std::int64_t>& ids);
  std::vector<HistoryPoint> points(const std::vector<std::int64_t>& ids);
  // Runs work, turning what it throws into failed(): the GUI shows it, the thread goes on.
  template <typename Work>
  void reporting(Work&& work);

  QString path_;
  std::shared_ptr<const std::atomic<quint64>> latest_;
  std::unique_ptr<RunStore> store_;
  struct Walk {
    std::string column;
    std::int64_t version = -1;  // the database's data version it was read at; -1: none
    std::vector<std::int64_t> ids;
  } walk_;
};

}  // namespace kwb
