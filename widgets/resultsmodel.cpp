#include "widgets/resultsmodel.h"

#include <QBrush>
#include <QColor>
#include <QRegularExpression>

#include "core/format.h"
#include "core/metricrollup.h"

namespace kwb {
namespace {

QString text(const std::string& s) {
  return QString::fromStdString(s);
}

QString verificationText(const Verification& v) {
  if (!v.checked) return QObject::tr("not checked");
  return QString("%1 (error %2, tolerance %3)")
      .arg(v.passed ? QObject::tr("passed") : QObject::tr("FAILED"))
      .arg(v.relError, 0, 'g', 2)
      .arg(v.tolerance, 0, 'g', 2);
}

}  // namespace

void ResultsModel::clear() {
  beginResetModel();
  runs_.clear();
  varying_.clear();
  endResetModel();
}

void ResultsModel::append(const RunResult& run) {
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
  const bool timed = r.stats.count > 0;
  const Metric* traced = r.metric(kActivityMedian);
  const Metric* wall = r.metric(kHostWall);
  const Metric* launches = r.metric(kHostLaunches);
  if (role == SortRole) {
    switch (index.column()) {
      case PointColumn: return index.row();
      case MedianColumn: return r.stats.median;
      case TracedColumn: return traced ? traced->value : 0.0;
      case WallColumn: return wall ? wall->value : 0.0;
      case LaunchesColumn: return launches ? launches->value : 0.0;
      case MinColumn: return r.stats.min;
      case MaxColumn: return r.stats.max;
      case SpreadColumn: return r.stats.relStddev();
      case BandwidthColumn: return r.bandwidth;
      case CeilingColumn: return r.ceilingFraction();
      case PeakColumn: return r.peakFraction();
      default: role = Qt::DisplayRole;
    }
  }
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case PointColumn: return index.row() + 1;
      case ParamsColumn: return paramsText(r);
      case StatusColumn: return text(std::string(toString(r.status)));
      case MedianColumn: return timed ? text(formatSeconds(r.stats.median)) : QString();
      case TracedColumn: return traced ? text(formatSeconds(traced->value)) : QString();
      case WallColumn: return wall ? text(formatSeconds(wall->value)) : QString();
      case LaunchesColumn: return launches ? QString::number(launches->value, 'f', 0) : QString();
      case MinColumn: return timed ? text(formatSeconds(r.stats.min)) : QString();
      case MaxColumn: return timed ? text(formatSeconds(r.stats.max)) : QString();
      case SpreadColumn: return timed ? text(formatPercent(r.stats.relStddev())) : QString();
      case BandwidthColumn: return timed ? text(formatBandwidth(r.bandwidth)) : QString();
      case CeilingColumn:
        return timed && r.ceilingBandwidth > 0 ? text(formatPercent(r.ceilingFraction()))
                                               : QString();
      case PeakColumn:
        return timed && r.peakBandwidth > 0 ? text(formatPercent(r.peakFraction())) : QString();
      case VerificationColumn: return verificationText(r.verification);
      default: return {};
    }
  }
  if (role == Qt::ToolTipRole) {
    if (!r.error.empty()) return text(r.error);
    if (!r.notice.empty()) return text(r.notice);
    if (index.column() == ParamsColumn)
      return text(r.variant + "  " + r.problem.toText() + "  " + r.launch.toText() +
                  "\nderived: " + r.derived.toText());
    return {};
  }
  if (role == Qt::ForegroundRole && r.status != RunStatus::Ok) return QBrush(QColor(180, 30, 30));
  if (role == Qt::TextAlignmentRole && index.column() >= MedianColumn &&
      index.column() <= PeakColumn)
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  return {};
}

QVariant ResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == TracedColumn)
    return tr(
        "The kernels' own time per call from CUPTI activity records: what the CUDA events "
        "measure, less the launch overhead between event and kernel");
  if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == WallColumn)
    return tr(
        "The host's time to issue one call and wait for it, L2 flushed before: what an "
        "application waits for, launch overhead included");
  if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == LaunchesColumn)
    return tr("Kernels, memsets and graphs the host launches per call");
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case PointColumn: return tr("#");
    case ParamsColumn: return tr("Parameters (those that change)");
    case StatusColumn: return tr("Status");
    case MedianColumn: return tr("Median");
    case TracedColumn: return tr("Kernel time");
    case WallColumn: return tr("Wall / call");
    case LaunchesColumn: return tr("Launches");
    case MinColumn: return tr("Min");
    case MaxColumn: return tr("Max");
    case SpreadColumn: return tr("Std. dev.");
    case BandwidthColumn: return tr("Bandwidth");
    case CeilingColumn: return tr("Of copy ceiling");
    case PeakColumn: return tr("Of peak");
    case VerificationColumn: return tr("Verification");
    default: return {};
  }
}

}  // namespace kwb
