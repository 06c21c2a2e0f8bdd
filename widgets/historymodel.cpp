#include "widgets/historymodel.h"

#include <QDateTime>

#include <algorithm>
#include <utility>

#include "core/format.h"
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
  const auto key = [column](const HistoryRow& a, const HistoryRow& b) {
    switch (column) {
      case KernelColumn: return a.kernel < b.kernel;
      case DtypeColumn: return a.dtype < b.dtype;
      case ProblemColumn: return a.problem < b.problem;
      case LaunchColumn: return a.launch < b.launch;
      case DeviceColumn: return a.device < b.device;
      case StatusColumn: return a.status < b.status;
      case MedianColumn: return a.median < b.median;
      case BandwidthColumn: return a.bandwidth < b.bandwidth;
      case CeilingColumn: return a.ceilingFraction < b.ceilingFraction;
      case TagsColumn: return a.tags < b.tags;
      default: return a.startedAt < b.startedAt || (a.startedAt == b.startedAt && a.id < b.id);
    }
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
  if (role == IdRole) return QVariant::fromValue(static_cast<qint64>(r.id));
  if (role == Qt::TextAlignmentRole && index.column() >= MedianColumn &&
      index.column() <= CeilingColumn)
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole) return {};
  const bool timed = r.median > 0;
  switch (index.column()) {
    case TimeColumn:
      return QDateTime::fromMSecsSinceEpoch(r.startedAt).toString("yyyy-MM-dd hh:mm:ss");
    case KernelColumn: return r.kernel;
    case DtypeColumn: return r.dtype;
    case ProblemColumn: return r.problem;
    case LaunchColumn: return r.launch;
    case DeviceColumn: return r.device;
    case StatusColumn: return r.status;
    case MedianColumn: return timed ? QString::fromStdString(formatSeconds(r.median)) : QString();
    case BandwidthColumn:
      return timed ? QString::fromStdString(formatBandwidth(r.bandwidth)) : QString();
    case CeilingColumn:
      return timed && r.ceilingFraction > 0
                 ? QString::fromStdString(formatPercent(r.ceilingFraction))
                 : QString();
    case TagsColumn: return r.tags;
    default: return {};
  }
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case TimeColumn: return tr("Time");
    case KernelColumn: return tr("Kernel");
    case DtypeColumn: return tr("Dtype");
    case ProblemColumn: return tr("Problem");
    case LaunchColumn: return tr("Launch");
    case DeviceColumn: return tr("Device");
    case StatusColumn: return tr("Status");
    case MedianColumn: return tr("Median");
    case BandwidthColumn: return tr("Bandwidth");
    case CeilingColumn: return tr("Of ceiling");
    case TagsColumn: return tr("Tags");
    default: return {};
  }
}

}  // namespace kwb
