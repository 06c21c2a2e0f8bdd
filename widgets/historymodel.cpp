#include "widgets/historymodel.h"

#include <algorithm>
#include <utility>

#include "core/resultcolumns.h"
#include "widgets/metatypes.h"

namespace kwb {
namespace {

constexpr int kPageRows = HistoryLoader::kPageRows;
constexpr std::size_t kCachedPages = 64;

}  // namespace

HistoryModel::HistoryModel(const QString& databasePath, QObject* parent)
    : QAbstractTableModel(parent),
      loader_(new HistoryLoader(databasePath, generation_)),
      ids_(std::make_shared<const std::vector<std::int64_t>>()) {
  registerMetaTypes();
  loader_->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, loader_, &QObject::deleteLater);
  connect(loader_, &HistoryLoader::loaded, this, &HistoryModel::onLoaded);
  connect(loader_, &HistoryLoader::pageLoaded, this, &HistoryModel::onPage);
  connect(loader_, &HistoryLoader::seriesLoaded, this,
          [this](quint64 request, const std::shared_ptr<const HistorySeriesSet>& series) {
            if (request == plotRequest_) emit seriesLoaded(*series);
          });
  connect(loader_, &HistoryLoader::comparisonLoaded, this,
          [this](quint64 request, const std::shared_ptr<const HistoryComparison>& comparison) {
            if (request == plotRequest_) emit comparisonLoaded(*comparison);
          });
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
  query();
}

void HistoryModel::reload() {
  query();
  // The filter menus' values change only with the history.
  QMetaObject::invokeMethod(loader_, [loader = loader_] { loader->loadChoices(); });
}

void HistoryModel::query() {
  loading_ = true;
  emit loadingChanged(true);
  // Queued into the loader's thread; the lambdas carry copies, never references to this model.
  QMetaObject::invokeMethod(loader_, [loader = loader_, generation = ++*generation_,
                                      filter = filter_, column = sortColumn_, order = sortOrder_] {
    loader->load(generation, filter, column, order);
  });
}

void HistoryModel::onLoaded(quint64 generation, const HistoryIds& ids, const HistoryRows& firstPage,
                            double seconds) {
  if (generation != *generation_) return;  // a newer request is on its way
  beginResetModel();
  ids_ = ids;
  auto old = std::exchange(pages_, {});
  pages_[0] = {firstPage, ++clock_};
  pending_.clear();
  endResetModel();
  // Thousands of cells are freed in the loader's thread, not while the window waits.
  QMetaObject::invokeMethod(loader_, [old = std::move(old)] {});
  loading_ = false;
  emit loadingChanged(false);
  emit loaded(static_cast<int>(ids_->size()), seconds);
}

void HistoryModel::requestPage(int page) const {
  if (!pending_.insert(page).second) return;
  const auto first = static_cast<std::size_t>(page) * kPageRows;
  const auto last = std::min(ids_->size(), first + kPageRows);
  std::vector<std::int64_t> ids(ids_->begin() + static_cast<std::ptrdiff_t>(first),
                                ids_->begin() + static_cast<std::ptrdiff_t>(last));
  QMetaObject::invokeMethod(
      loader_, [loader = loader_, generation = generation_->load(), page, ids = std::move(ids)] {
        loader->loadPage(generation, page, ids);
      });
}

void HistoryModel::onPage(quint64 generation, int page, const HistoryRows& rows) {
  if (generation != *generation_ || !pending_.erase(page)) return;
  if (pages_.size() >= kCachedPages) {
    const auto oldest = std::min_element(pages_.begin(), pages_.end(), [](auto& a, auto& b) {
      return a.second.used < b.second.used;
    });
    pages_.erase(oldest);
  }
  pages_[page] = {rows, ++clock_};
  const int first = page * kPageRows;
  const int last = std::min(rowCount(), first + static_cast<int>(rows->size())) - 1;
  if (last >= first) emit dataChanged(index(first, 0), index(last, ColumnCount - 1));
}

const HistoryRow* HistoryModel::cachedRow(int row) const {
  if (row < 0 || row >= rowCount()) return nullptr;
  const int page = row / kPageRows;
  const auto found = pages_.find(page);
  if (found == pages_.end()) {
    requestPage(page);
    return nullptr;
  }
  found->second.used = ++clock_;
  const auto offset = static_cast<std::size_t>(row % kPageRows);
  const auto& rows = *found->second.rows;
  // A page read after runs were deleted may be short; the reload after the change replaces it.
  if (offset >= rows.size() || rows[offset].id != (*ids_)[static_cast<std::size_t>(row)])
    return nullptr;
  return &rows[offset];
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

void HistoryModel::requestSeries(std::vector<std::int64_t> ids) {
  QMetaObject::invokeMethod(loader_, [loader = loader_, request = ++plotRequest_,
                                      ids = std::move(ids)] { loader->loadSeries(request, ids); });
}

void HistoryModel::requestComparison(std::vector<std::int64_t> ids) {
  QMetaObject::invokeMethod(loader_,
                            [loader = loader_, request = ++plotRequest_, ids = std::move(ids)] {
                              loader->loadComparison(request, ids);
                            });
}

void HistoryModel::sort(int column, Qt::SortOrder order) {
  if (column == sortColumn_ && order == sortOrder_) return;
  sortColumn_ = column;
  sortOrder_ = order;
  query();
}

int HistoryModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(ids_->size());
}

int HistoryModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant HistoryModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const auto c = static_cast<std::size_t>(index.column());
  if (role == IdRole)
    return QVariant::fromValue(static_cast<qint64>((*ids_)[static_cast<std::size_t>(index.row())]));
  if (role == Qt::TextAlignmentRole && historyColumns()[c]->numeric)
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole) return {};
  const HistoryRow* row = cachedRow(index.row());
  return row ? row->cells[c] : QString();
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
  const ResultColumn& c = *historyColumns()[static_cast<std::size_t>(section)];
  if (role == Qt::DisplayRole) return QString::fromStdString(capitalized(c.header));
  if (role == Qt::ToolTipRole) return QString::fromStdString(std::string(c.hint));
  return {};
}

}  // namespace kwb
