#include "widgets/compareplot.h"

#include <QVBoxLayout>

#include <qcustomplot.h>

#include "widgets/plotstyle.h"

namespace kwb {

ComparePlot::ComparePlot(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
  setUpInteractions(plot_);
  redraw();
}

void ComparePlot::setRows(HistorySelection rows) {
  rows_ = std::move(rows);
  redraw();
}

void ComparePlot::setMetric(Metric metric) {
  metric_ = metric;
  redraw();
}

int ComparePlot::barCount() const {
  auto* bars = plot_->plottableCount() > 0 ? qobject_cast<QCPBars*>(plot_->plottable(0)) : nullptr;
  return bars ? bars->dataCount() : 0;
}

void ComparePlot::redraw() {
  plot_->clearPlottables();
  plot_->clearItems();
  const bool runtime = metric_ == Metric::Runtime;
  plot_->yAxis->setLabel(runtime ? tr("median runtime [µs]") : tr("bandwidth [GB/s]"));
  auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
  bars->setName(runtime ? tr("median runtime") : tr("bandwidth"));
  bars->setBrush(seriesColour(0).lighter(130));
  bars->setPen(QPen(seriesColour(0)));
  bars->setWidth(0.6);
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  QVector<double> x, y, low, high;
  double ceiling = 0;
  for (const HistoryRow* r : rows_.rows) {
    const HistoryRow& row = *r;
    if (row.median <= 0) continue;
    const double position = static_cast<double>(x.size() + 1);
    x << position;
    if (runtime) {
      y << row.median * 1e6;
      low << (row.median - row.min) * 1e6;
      high << (row.max - row.median) * 1e6;
    } else {
      y << row.bandwidth * 1e-9;
      if (row.ceilingFraction > 0) ceiling = std::max(ceiling, row.bandwidth / row.ceilingFraction);
    }
    ticker->addTick(position, row.kernel + "\n" + row.dtype + " " + row.launch);
  }
  bars->setData(x, y, true);
  if (runtime) {
    auto* spread = new QCPErrorBars(plot_->xAxis, plot_->yAxis);
    spread->setDataPlottable(bars);
    spread->setData(low, high);
    spread->removeFromLegend();
  }
  plot_->xAxis->setTicker(ticker);
  plot_->xAxis->setTickLabelRotation(x.size() > 6 ? 30 : 0);
  plot_->xAxis->setRange(0.3, static_cast<double>(x.size()) + 0.7);
  plot_->yAxis->rescale();
  double top = plot_->yAxis->range().upper;
  if (ceiling > 0) {
    auto* line = new QCPItemStraightLine(plot_);
    line->point1->setCoords(0, ceiling * 1e-9);
    line->point2->setCoords(1, ceiling * 1e-9);
    line->setPen(QPen(QColor(44, 160, 44), 1.5, Qt::DashLine));
    auto* label = new QCPItemText(plot_);
    label->position->setCoords(0.35, ceiling * 1e-9);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    label->setText(tr("copy ceiling"));
    label->setColor(QColor(44, 160, 44));
    top = std::max(top, ceiling * 1e-9);
  }
  plot_->yAxis->setRange(0, top * 1.12);
  plot_->replot();
}

}  // namespace kwb
