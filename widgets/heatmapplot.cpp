#include "widgets/heatmapplot.h"

#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include "core/verdict.h"
#include "widgets/plotstyle.h"

namespace kwb {
namespace {

// The distinct values of a parameter in the order they first appear: the sweep's order.
QStringList orderedValues(const std::vector<RunResult>& runs, const std::string& param) {
  QStringList values;
  for (const auto& run : runs) {
    const QString v = QString::fromStdString(run.param(param));
    if (!values.contains(v)) values << v;
  }
  return values;
}

QSharedPointer<QCPAxisTickerText> ticksFor(const QStringList& values) {
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  for (int i = 0; i < values.size(); ++i) ticker->addTick(i, values[i]);
  return ticker;
}

}  // namespace

HeatmapPlot::HeatmapPlot(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
  map_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
  scale_ = new QCPColorScale(plot_);
  plot_->plotLayout()->addElement(0, 1, scale_);
  scale_->axis()->setLabel(tr("bandwidth [GB/s]"));
  map_->setColorScale(scale_);
  map_->setGradient(QCPColorGradient::gpThermal);
  map_->setInterpolate(false);
  auto* margins = new QCPMarginGroup(plot_);
  plot_->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
  scale_->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  readout_ = addCornerText(plot_, Qt::AlignRight);
  connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
    // The cell under the mouse: cells sit on whole coordinates, one per swept value.
    const int x = static_cast<int>(std::lround(plot_->xAxis->pixelToCoord(event->position().x())));
    const int y = static_cast<int>(std::lround(plot_->yAxis->pixelToCoord(event->position().y())));
    const bool inside = x >= 0 && y >= 0 && x < xs_.size() && y < ys_.size();
    const double value = inside ? map_->data()->cell(x, y) : std::nan("");
    const QString text =
        std::isnan(value) ? QString()
                          : QString("%1 = %2, %3 = %4\n%5 GB/s")
                                .arg(plot_->xAxis->label(), xs_[x], plot_->yAxis->label(), ys_[y])
                                .arg(value, 0, 'f', 0);
    showText(plot_, readout_, text);
  });
}

void HeatmapPlot::setRuns(const std::vector<RunResult>& runs, const QString& xParam,
                          const QString& yParam, const QString& xUnit, const QString& yUnit) {
  for (auto* label : labels_) plot_->removeItem(label);
  labels_.clear();
  for (auto* mark : marks_) plot_->removeItem(mark);
  marks_.clear();
  std::vector<QPoint> cells;
  std::vector<double> bandwidths;
  std::vector<Interval> intervals;
  const std::string xName = xParam.toStdString(), yName = yParam.toStdString();
  xs_ = orderedValues(runs, xName);
  ys_ = orderedValues(runs, yName);
  const QStringList& xs = xs_;
  const QStringList& ys = ys_;
  cells_ = 0;
  map_->data()->setSize(std::max<int>(1, static_cast<int>(xs.size())),
                        std::max<int>(1, static_cast<int>(ys.size())));
  map_->data()->setRange(QCPRange(0, std::max<double>(0, static_cast<double>(xs.size()) - 1)),
                         QCPRange(0, std::max<double>(0, static_cast<double>(ys.size()) - 1)));
  map_->data()->fill(std::nan(""));
  for (const auto& run : runs) {
    if (run.stats.count == 0) continue;
    const int x = static_cast<int>(xs.indexOf(QString::fromStdString(run.param(xName))));
    const int y = static_cast<int>(ys.indexOf(QString::fromStdString(run.param(yName))));
    const double gb = run.bandwidth * 1e-9;
    map_->data()->setCell(x, y, gb);
    auto* label = new QCPItemText(plot_);
    label->position->setCoords(x, y);
    label->setText(QString::number(gb, 'f', 0));
    label->setColor(Qt::white);
    label->setBrush(QColor(0, 0, 0, 110));  // readable on light and dark cells alike
    labels_.push_back(label);
    ++cells_;
    cells.emplace_back(x, y);
    bandwidths.push_back(run.bandwidth);
    intervals.push_back(rateInterval(run.bandwidth, run.stats.median, medianInterval(run.samples)));
  }
  const std::vector<bool> tied = tiedWithBest(bandwidths, intervals);
  const double best =
      bandwidths.empty() ? 0 : *std::max_element(bandwidths.begin(), bandwidths.end());
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (!tied[i]) continue;
    auto* mark = new QCPItemRect(plot_);
    mark->topLeft->setCoords(cells[i].x() - 0.47, cells[i].y() + 0.47);
    mark->bottomRight->setCoords(cells[i].x() + 0.47, cells[i].y() - 0.47);
    const bool isBest = bandwidths[i] == best;
    mark->setPen(QPen(QColor(20, 160, 255), isBest ? 3 : 2, isBest ? Qt::SolidLine : Qt::DashLine));
    marks_.push_back(mark);
  }
  rangeIsNoise_ =
      cells.size() > 1 && std::all_of(tied.begin(), tied.end(), [](bool t) { return t; });
  scale_->axis()->setLabel(rangeIsNoise_ ? tr("bandwidth [GB/s]: the whole range is inside the "
                                              "noise")
                                         : tr("bandwidth [GB/s]; outlined: tied with the best"));
  plot_->xAxis->setTicker(ticksFor(xs));
  plot_->yAxis->setTicker(ticksFor(ys));
  const auto label = [](const QString& name, const QString& unit) {
    return unit.isEmpty() ? name : name + " [" + unit + "]";
  };
  plot_->xAxis->setLabel(label(xParam, xUnit));
  plot_->yAxis->setLabel(label(yParam, yUnit));
  map_->rescaleDataRange(true);
  plot_->xAxis->setRange(-0.5, static_cast<double>(xs.size()) - 0.5);
  plot_->yAxis->setRange(-0.5, static_cast<double>(ys.size()) - 0.5);
  plot_->replot();
}

}  // namespace kwb
