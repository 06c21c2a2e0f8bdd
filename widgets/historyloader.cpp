#include "widgets/historyloader.h"

#include <QElapsedTimer>
#include <QHash>

#include "core/error.h"
#include "db/database.h"
#include "db/exporter.h"
#include "db/runstore.h"
#include "widgets/historymodel.h"

namespace kwb {
namespace {

constexpr std::size_t kFirstPage = 2000;

struct Superseded {};

double elapsedSeconds(const QElapsedTimer& clock) {
  return static_cast<double>(clock.nsecsElapsed()) * 1e-9;
}

QStringList toQt(const std::vector<std::string>& values) {
  QStringList list;
  for (const auto& v : values)
    if (!v.empty()) list << QString::fromStdString(v);
  return list;
}

}  // namespace

HistoryLoader::HistoryLoader(QString databasePath,
                             std::shared_ptr<const std::atomic<quint64>> latest)
    : path_(std::move(databasePath)), latest_(std::move(latest)) {}

HistoryLoader::~HistoryLoader() = default;

RunStore& HistoryLoader::store() {
  if (!store_) store_ = std::make_unique<RunStore>(path_.toStdString());
  return *store_;
}

template <typename Work>
void HistoryLoader::reporting(Work&& work) {
  try {
    work();
  } catch (const std::exception& e) {
    emit failed(QString::fromStdString(e.what()));
  }
}

void HistoryLoader::load(quint64 generation, const HistoryFilter& filter, int sortColumn,
                         Qt::SortOrder order) {
  QElapsedTimer clock;
  clock.start();
  try {
    // Time order comes from SQL, so the newest runs can be shown while the rest still load.
    const bool byTime = sortColumn == HistoryModel::TimeColumn;
    HistoryFilter ordered = filter;
    if (byTime) ordered.newestFirst = order == Qt::DescendingOrder;
    auto rows = std::make_shared<std::vector<HistoryRow>>();
    QHash<QString, int> seriesIds;  // numbering series here saves the plots hashing strings
    store().forEach(ordered, [&](RunRecord&& record) {
      if (rows->size() % 1024 == 0 && latest_->load() != generation) throw Superseded{};
      HistoryRow row = toHistoryRow(record);
      auto id = seriesIds.constFind(row.series);
      if (id == seriesIds.cend())
        id = seriesIds.insert(row.series, static_cast<int>(seriesIds.size()));
      row.seriesId = *id;
      rows->push_back(std::move(row));
      if (byTime && rows->size() == kFirstPage)
        emit loaded(generation, std::make_shared<const std::vector<HistoryRow>>(*rows),
                    elapsedSeconds(clock), false);
    });
    if (!byTime) HistoryModel::sortRows(*rows, sortColumn, order);
    emit loaded(generation, rows, elapsedSeconds(clock), true);
  } catch (const Superseded&) {
    // A newer filter or sort was asked for while this one loaded: its result would be dropped.
  } catch (const std::exception& e) {
    emit failed(QString::fromStdString(e.what()));
  }
}

void HistoryLoader::loadChoices() {
  reporting([&] {
    emit choicesLoaded(toQt(store().distinct("family")), toQt(store().distinct("variant")),
                       toQt(store().distinct("dtype")));
  });
}

void HistoryLoader::deleteRuns(const QList<qint64>& ids) {
  reporting([&] {
    store().deleteRuns(std::vector<std::int64_t>(ids.begin(), ids.end()));
    emit changed();
  });
}

void HistoryLoader::addTag(const QList<qint64>& ids, const QString& tag) {
  reporting([&] {
    Transaction batch(store().database());  // one commit for the lot, not one per run
    for (const qint64 id : ids) store().addTag(id, tag.toStdString());
    batch.commit();
    emit changed();
  });
}

void HistoryLoader::addNote(const QList<qint64>& ids, const QString& text) {
  reporting([&] {
    Transaction batch(store().database());
    for (const qint64 id : ids) store().addNote(id, text.toStdString());
    batch.commit();
    emit changed();
  });
}

void HistoryLoader::exportRuns(const QList<qint64>& ids, const QString& path, ExportFormat format) {
  reporting([&] {
    std::vector<RunRecord> records;
    for (const qint64 id : ids)
      if (auto record = store().run(id)) records.push_back(std::move(*record));
    kwb::exportRuns(path.toStdString(), records, format);
    emit exported(path, static_cast<int>(records.size()));
  });
}

}  // namespace kwb
