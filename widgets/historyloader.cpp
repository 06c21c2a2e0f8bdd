#include "widgets/historyloader.h"

#include <QElapsedTimer>

#include <algorithm>
#include <unordered_map>

#include "db/database.h"
#include "db/exporter.h"
#include "db/historyorder.h"
#include "db/runstore.h"

namespace kwb {
namespace {

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

const std::vector<std::int64_t>& HistoryLoader::runsInOrder(std::string_view column) {
  // Another connection's commit (the worker storing a run) changes the data version; this one's
  // changes drop the walk where they are made.
  const std::int64_t version = store().database().dataVersion();
  if (walk_.version != version || walk_.column != column)
    walk_ = {std::string(column), version, kwb::runsInOrder(store().database(), column)};
  return walk_.ids;
}

HistoryRows HistoryLoader::rows(const std::vector<std::int64_t>& ids) {
  auto out = std::make_shared<std::vector<HistoryRow>>();
  for (const RunRecord& record : store().runs(ids)) out->push_back(toHistoryRow(record));
  return out;
}

std::vector<HistoryPoint> HistoryLoader::points(const std::vector<std::int64_t>& ids) {
  std::vector<HistoryPoint> out;
  out.reserve(ids.size());
  HistoryPointReader read;
  store().forEachPoint(ids, [&](const RunPoint& run) { out.push_back(read(run)); });
  return out;
}

void HistoryLoader::load(quint64 generation, const HistoryFilter& filter, int column,
                         Qt::SortOrder order) {
  if (generation != latest_->load()) return;  // a newer filter or sort is on its way
  reporting([&] {
    QElapsedTimer clock;
    clock.start();
    const std::string_view key =
        column >= 0 && static_cast<std::size_t>(column) < kHistoryColumns.size()
            ? kHistoryColumns[static_cast<std::size_t>(column)]
            : kHistoryColumns.front();
    auto ordered = std::make_shared<std::vector<std::int64_t>>(runsInOrder(key));
    keepMatching(store().database(), filter, *ordered);
    if (order == Qt::DescendingOrder) std::reverse(ordered->begin(), ordered->end());
    HistoryIds ids = std::move(ordered);
    const auto first = std::min<std::size_t>(ids->size(), kPageRows);
    const HistoryRows page =
        rows({ids->begin(), ids->begin() + static_cast<std::ptrdiff_t>(first)});
    emit loaded(generation, ids, page, static_cast<double>(clock.nsecsElapsed()) * 1e-9);
  });
}

void HistoryLoader::loadPage(quint64 generation, int page, const std::vector<std::int64_t>& ids) {
  if (generation != latest_->load()) return;
  reporting([&] { emit pageLoaded(generation, page, rows(ids)); });
}

void HistoryLoader::loadSeries(quint64 request, const std::vector<std::int64_t>& ids) {
  reporting([&] {
    emit seriesLoaded(request,
                      std::make_shared<const HistorySeriesSet>(historySeries(points(ids))));
  });
}

void HistoryLoader::loadComparison(quint64 request, const std::vector<std::int64_t>& ids) {
  reporting([&] {
    auto comparison = std::make_shared<HistoryComparison>();
    // Points come in storage order: put them in the order asked for.
    std::unordered_map<std::int64_t, HistoryPoint> byId;
    for (HistoryPoint& p : points(ids)) byId.emplace(p.id, std::move(p));
    for (const std::int64_t id : ids)
      if (const auto found = byId.find(id); found != byId.end())
        comparison->points.push_back(found->second);
    // The samples give intervals and verdicts; a few dozen runs read in a blink.
    if (ids.size() <= kMostWithSamples) {
      std::map<std::int64_t, RunResult> runs;
      for (const std::int64_t id : ids)
        if (auto record = store().run(id)) runs.emplace(id, std::move(record->result));
      comparison->judged = judgeRuns(comparison->points, runs);
    }
    emit comparisonLoaded(request, comparison);
  });
}

void HistoryLoader::loadChoices() {
  reporting([&] {
    emit choicesLoaded(toQt(store().distinct("family")), toQt(store().distinct("variant")),
                       toQt(store().distinct("dtype")));
  });
}

void HistoryLoader::deleteRuns(const QList<qint64>& ids) {
  reporting([&] {
    walk_ = {};
    store().deleteRuns(std::vector<std::int64_t>(ids.begin(), ids.end()));
    emit changed();
  });
}

void HistoryLoader::addTag(const QList<qint64>& ids, const QString& tag) {
  reporting([&] {
    walk_ = {};                             // the order by tags changes
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
