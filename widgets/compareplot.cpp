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
  ceiling_ = new QCPItemStraightLine(plot_);
  ceiling_->setPen(QPen(QColor(44, 160, 44), 1.5, Qt::DashLine));
  ceilingLabel_ = new QCPItemText(plot_);
  ceilingLabel_->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
  ceilingLabel_->setText(tr("copy ceiling"));
  ceilingLabel_->setColor(QColor(44, 160, 44));
  installReadout(plot_, [this](const QString&, double key, double value) {
    auto* ticker = dynamic_cast<QCPAxisTickerText*>(plot_->xAxis->ticker().data());
    return QString("%1\n%2").arg(ticker ? ticker->ticks().value(key) : QString(),
                                 valueText(metric_, value));
  });
  redraw();
}

void ComparePlot::setRows(HistorySelection rows) {
  rows_ = std::move(rows);
  redraw();
}

void ComparePlot::setMetric(ChartMetric metric) {
  metric_ = metric;
  redraw();
}

int ComparePlot::barCount() const {
  auto* bars = plot_->plottableCount() > 0 ? qobject_cast<QCPBars*>(plot_->plottable(0)) : nullptr;
  return bars ? bars->dataCount() : 0;
}

void ComparePlot::redraw() {
  plot_->clearPlottables();
  const bool runtime = metric_ == ChartMetric::Runtime;
  plot_->yAxis->setLabel(axisLabel(metric_));
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
  ceiling_->setVisible(ceiling > 0);
  ceilingLabel_->setVisible(ceiling > 0);
  if (ceiling > 0) {
    ceiling_->point1->setCoords(0, ceiling * 1e-9);
    ceiling_->point2->setCoords(1, ceiling * 1e-9);
    ceilingLabel_->position->setCoords(0.35, ceiling * 1e-9);
    top = std::max(top, ceiling * 1e-9);
  }
  plot_->yAxis->setRange(0, top * 1.12);
  plot_->replot();
}

}  // namespace kwb
