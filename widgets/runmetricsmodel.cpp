#include "widgets/runmetricsmodel.h"

#include "core/format.h"

namespace kwb {
namespace {

// What each family of names means, for the tooltip of its rows.
QString meaning(const std::string& name) {
  if (name.rfind("gpu.", 0) == 0)
    return QObject::tr(
        "GPU state read between timing batches (NVML, or a clock-measuring kernel "
        "where NVML is absent)");
  if (name.rfind("activity.", 0) == 0)
    return QObject::tr("Kernel time per call from CUPTI activity records, traced after timing");
  return QObject::tr(
      "Hardware counter read by the CUPTI range profiler (Nsight Compute's name), "
      "in a replayed pass after timing");
}

// 0: hardware counters, 1: traced durations, 2: GPU state.
int group(const Metric& m) {
  if (m.name.rfind("activity.", 0) == 0) return 1;
  if (m.name.rfind("gpu.", 0) == 0) return 2;
  return 0;
}

}  // namespace

void RunMetricsModel::setRun(const RunResult& run) {
  beginResetModel();
  run_ = run;
  rows_.clear();
  const bool perKernel = kernels().size() > 1;
  for (int g = 0; g < 3; ++g)
    for (bool kernelRows : {false, true})
      for (std::size_t i = 0; i < run_.metrics.size(); ++i) {
        const Metric& m = run_.metrics[i];
        if (group(m) == g && m.kernel.empty() != kernelRows && (!kernelRows || perKernel))
          rows_.push_back(i);
      }
  endResetModel();
}

QStringList RunMetricsModel::kernels() const {
  QStringList names;
  for (const auto& name : run_.kernels()) names << QString::fromStdString(name);
  return names;
}

const Metric& RunMetricsModel::metricAt(int row) const {
  return run_.metrics[rows_[static_cast<std::size_t>(row)]];
}

int RunMetricsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int RunMetricsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunMetricsModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const Metric& m = metricAt(index.row());
  if (role == SortRole && index.column() == ValueColumn) return m.value;
  if (role == Qt::DisplayRole || role == SortRole) {
    switch (index.column()) {
      case NameColumn: return QString::fromStdString(m.name);
      case KernelColumn: return m.kernel.empty() ? tr("(run)") : QString::fromStdString(m.kernel);
      case ValueColumn: return QString::fromStdString(formatMetricValue(m.value, m.unit));
      default: return {};
    }
  }
  if (role == Qt::ToolTipRole) return meaning(m.name);
  if (role == Qt::TextAlignmentRole && index.column() == ValueColumn)
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  return {};
}

QVariant RunMetricsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case NameColumn: return tr("Metric");
    case KernelColumn: return tr("Kernel");
    case ValueColumn: return tr("Value");
    default: return {};
  }
}

}  // namespace kwb
