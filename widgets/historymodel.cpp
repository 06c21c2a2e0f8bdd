#include "widgets/historymodel.h"

#include <algorithm>
#include <utility>

#include "core/resultcolumns.h"
#include "widgets/historyloader.h"
#include "widgets/metatypes.h"

namespace kwb {

HistoryModel::HistoryModel(const QString& databasePath, QObject* parent)
    : QAbstractTableModel(parent),
      loader_(new HistoryLoader(databasePath, generation_)),
      rows_(std::make_shared<const std::vector<HistoryRow>>()) {
  registerMetaTypes();
  loader_->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, loader_, &QObject::deleteLater);
  connect(loader_, &HistoryLoader::loaded, this, &HistoryModel::onLoaded);
  connect(loader_, &HistoryLoader::choicesLoaded, this, &HistoryModel::choicesLoaded);
  connect(loader_, &HistoryLoader::changed, this, &HistoryModel::reload);
  connect(loader_, &HistoryLoader::exported, this, &HistoryModel::exported);
  connect(loader_, &HistoryLoader::failed, this, [this](const QString& message) {
    loading_ = false;
    emit loadingChanged(false);
    emit failed(message);
  });
  thread_.start();
  reload();
}

HistoryModel::~HistoryModel() {
  thread_.quit();
  thread_.wait();
}

void HistoryModel::setFilter(const HistoryFilter& filter) {
  filter_ = filter;
  reload();
}

void HistoryModel::reload() {
  loading_ = true;
  emit loadingChanged(true);
  // Queued into the loader's thread; the lambdas carry copies, never references to this model.
  QMetaObject::invokeMethod(loader_, [loader = loader_, generation = ++*generation_,
                                      filter = filter_, column = sortColumn_, order = sortOrder_] {
    loader->load(generation, filter, column, order);
  });
  QMetaObject::invokeMethod(loader_, [loader = loader_] { loader->loadChoices(); });
}

void HistoryModel::onLoaded(quint64 generation, const HistorySnapshot& rows, double seconds,
                            bool complete) {
  if (generation != *generation_) return;  // a newer request is on its way
  beginResetModel();
  HistorySnapshot old = std::exchange(rows_, rows);
  endResetModel();
  // Freeing 100 000 rows takes tens of milliseconds: the loader's thread does it.
  QMetaObject::invokeMethod(loader_, [old = std::move(old)] {});
  if (!complete) return;
  loading_ = false;
  emit loadingChanged(false);
  emit loaded(static_cast<int>(rows_->size()), seconds);
}

void HistoryModel::deleteRuns(const QList<qint64>& ids) {
  QMetaObject::invokeMethod(loader_, [loader = loader_, ids] { loader->deleteRuns(ids); });
}

void HistoryModel::addTag(const QList<qint64>& ids, const QString& tag) {
  QMetaObject::invokeMethod(loader_, [loader = loader_, ids, tag] { loader->addTag(ids, tag); });
}

void HistoryModel::addNote(const QList<qint64>& ids, const QString& text) {
  QMetaObject::invokeMethod(loader_, [loader = loader_, ids, text] { loader->addNote(ids, text); });
}

void HistoryModel::exportRuns(const QList<qint64>& ids, const QString& path, ExportFormat format) {
  QMetaObject::invokeMethod(
      loader_, [loader = loader_, ids, path, format] { loader->exportRuns(ids, path, format); });
}

void HistoryModel::sortRows(std::vector<HistoryRow>& rows, int column, Qt::SortOrder order) {
  const auto c = static_cast<std::size_t>(column);
  const bool numeric = column >= 0 && column < ColumnCount && historyColumns()[c]->numeric;
  const auto key = [&](const HistoryRow& a, const HistoryRow& b) {
    if (column == TimeColumn || column < 0 || column >= ColumnCount)
      return a.startedAt < b.startedAt || (a.startedAt == b.startedAt && a.id < b.id);
    return numeric ? a.sortValues[c] < b.sortValues[c] : a.cells[c] < b.cells[c];
  };
  if (order == Qt::AscendingOrder)
    std::stable_sort(rows.begin(), rows.end(), key);
  else
    std::stable_sort(rows.begin(), rows.end(), [&](auto& a, auto& b) { return key(b, a); });
}

void HistoryModel::sort(int column, Qt::SortOrder order) {
  if (column == sortColumn_ && order == sortOrder_) return;
  sortColumn_ = column;
  sortOrder_ = order;
  reload();
}

int HistoryModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_->size());
}

int HistoryModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant HistoryModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const HistoryRow& r = row(index.row());
  const auto c = static_cast<std::size_t>(index.column());
  if (role == IdRole) return QVariant::fromValue(static_cast<qint64>(r.id));
  if (role == Qt::TextAlignmentRole && historyColumns()[c]->numeric)
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::DisplayRole) return r.cells[c];
  return {};
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
  const ResultColumn& c = *historyColumns()[static_cast<std::size_t>(section)];
  if (role == Qt::DisplayRole) return QString::fromStdString(capitalized(c.header));
  if (role == Qt::ToolTipRole) return QString::fromStdString(std::string(c.hint));
  return {};
}

}  // namespace kwb
