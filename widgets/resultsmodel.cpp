#include "widgets/resultsmodel.h"

#include <QBrush>
#include <QColor>
#include <QRegularExpression>

namespace kwb {
namespace {

QString text(const std::string& s) {
  return QString::fromStdString(s);
}

}  // namespace

const ResultColumn& ResultsModel::column(int section) {
  // In the order of Column from StatusColumn on.
  static const auto columns = resultColumns(
      {"status", "time_median_s", "traced_s", "wall_s", "launches", "time_min_s", "time_max_s",
       "rsd", "bandwidth_Bps", "ceiling_fraction", "peak_fraction", "verify_rel_error"});
  static_assert(ColumnCount - StatusColumn == 12);
  return *columns[static_cast<std::size_t>(section - StatusColumn)];
}

void ResultsModel::clear() {
  beginResetModel();
  runs_.clear();
  ids_.clear();
  varying_.clear();
  endResetModel();
}

std::int64_t ResultsModel::runId(int row) const {
  return row >= 0 && row < static_cast<int>(ids_.size()) ? ids_[static_cast<std::size_t>(row)] : 0;
}

void ResultsModel::append(const RunResult& run, std::int64_t runId) {
  const std::size_t before = varying_.size();
  if (!runs_.empty()) {
    const RunResult& first = runs_.front();
    if (run.variant != first.variant) varying_.insert("variant");
    for (const ParamSet* set : {&run.problem, &run.launch})
      for (const auto& [name, value] : set->values())
        if (first.param(name) != value) varying_.insert(name);
  }
  const int row = static_cast<int>(runs_.size());
  beginInsertRows({}, row, row);
  runs_.push_back(run);
  ids_.push_back(runId);
  endInsertRows();
  if (varying_.size() != before)  // earlier rows now show the new column of change too
    emit dataChanged(index(0, ParamsColumn), index(row, ParamsColumn), {Qt::DisplayRole});
}

QString ResultsModel::paramsText(const RunResult& r) const {
  if (varying_.empty())
    return QStringList{text(r.variant), text(r.problem.toText()), text(r.launch.toText())}
        .filter(QRegularExpression("."))
        .join("  ");
  ParamSet shown;
  for (const ParamSet* set : {&r.problem, &r.launch})
    for (const auto& [name, value] : set->values())
      if (varying_.contains(name)) shown.set(name, value);
  return text((varying_.contains("variant") ? r.variant + "  " : std::string()) + shown.toText());
}

int ResultsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(runs_.size());
}

int ResultsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant ResultsModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const RunResult& r = runs_[static_cast<std::size_t>(index.row())];
  const int section = index.column();
  if (role == Qt::ToolTipRole) {
    if (!r.error.empty()) return text(r.error);
    if (!r.notice.empty()) return text(r.notice);
    if (section == ParamsColumn)
      return text(r.variant + "  " + r.problem.toText() + "  " + r.launch.toText() +
                  "\nderived: " + r.derived.toText());
    return {};
  }
  if (role == Qt::ForegroundRole && r.status != RunStatus::Ok) return QBrush(QColor(180, 30, 30));
  const bool shown = role == Qt::DisplayRole || role == SortRole;
  if (section == PointColumn) return shown ? QVariant(index.row() + 1) : QVariant();
  if (section == ParamsColumn) return shown ? QVariant(paramsText(r)) : QVariant();
  const ResultColumn& c = column(section);
  const RunRecord record{0, std::nullopt, {}, r, {}};
  if (role == Qt::DisplayRole) return text(c.text(record));
  if (role == SortRole)
    return c.numeric ? QVariant(sortValue(c.value(record))) : QVariant(text(c.text(record)));
  if (role == Qt::TextAlignmentRole && c.numeric)
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  return {};
}

QVariant ResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
  if (section == PointColumn) return role == Qt::DisplayRole ? tr("#") : QVariant();
  if (section == ParamsColumn)
    return role == Qt::DisplayRole ? tr("Parameters (those that change)") : QVariant();
  const ResultColumn& c = column(section);
  if (role == Qt::DisplayRole) return text(capitalized(c.header));
  if (role == Qt::ToolTipRole) return text(std::string(c.hint));
  return {};
}

}  // namespace kwb
