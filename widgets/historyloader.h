#pragma once

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>

#include "db/exporter.h"
#include "db/historyfilter.h"
#include "widgets/historyrow.h"

namespace kwb {

class RunStore;

// The history's database work, off the GUI thread: lives in a thread of its own with its own
// SQLite connection, and hands the GUI immutable snapshots. Runs stream from SQLite one at a time,
// so a large history is never held as full records.
class HistoryLoader : public QObject {
  Q_OBJECT

 public:
  // latest: the newest generation asked for; a load that falls behind it stops early.
  HistoryLoader(QString databasePath, std::shared_ptr<const std::atomic<quint64>> latest);
  ~HistoryLoader() override;

 public slots:
  void load(quint64 generation, const kwb::HistoryFilter& filter, int sortColumn,
            Qt::SortOrder order);
  void loadChoices();
  void deleteRuns(const QList<qint64>& ids);
  void addTag(const QList<qint64>& ids, const QString& tag);
  void addNote(const QList<qint64>& ids, const QString& text);
  // The runs in full (samples included), in the given order.
  void exportRuns(const QList<qint64>& ids, const QString& path, kwb::ExportFormat format);

 signals:
  // A first part (complete false) may come before the whole.
  void loaded(quint64 generation, const kwb::HistorySnapshot& rows, double seconds, bool complete);
  void choicesLoaded(const QStringList& families, const QStringList& variants,
                     const QStringList& dtypes);
  void changed();
  void exported(const QString& path, int count);
  void failed(const QString& message);

 private:
  RunStore& store();
  // Runs work, turning what it throws into failed(): the GUI shows it, the thread goes on.
  template <typename Work>
  void reporting(Work&& work);

  QString path_;
  std::shared_ptr<const std::atomic<quint64>> latest_;
  std::unique_ptr<RunStore> store_;
};

}  // namespace kwb
