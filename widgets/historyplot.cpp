#include "widgets/historyplot.h"

#include <QDateTime>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "widgets/plotstyle.h"

namespace kwb {
namespace {

constexpr std::size_t kMaxPointsWithBars = 2000;
constexpr std::size_t kMaxPointsWithMarkers = 300;
constexpr std::size_t kMaxPointsAntialiased = 200;

}  // namespace

HistoryPlot::HistoryPlot(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
  dateTicker_ = QSharedPointer<QCPAxisTickerDateTime>::create();
  plot_->xAxis->setTicker(dateTicker_);
  plot_->xAxis->setLabel(tr("time run"));
  // Up to ten long series names: beside the axes, not over the data.
  plot_->legend->setVisible(true);
  QFont small = font();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  plot_->legend->setFont(small);
  plot_->axisRect()->insetLayout()->take(plot_->legend);
  auto* side = new QCPLayoutGrid;  // the legend on top, an empty cell taking the rest
  plot_->plotLayout()->addElement(0, 1, side);
  plot_->plotLayout()->setColumnStretchFactor(1, 0.001);
  side->addElement(0, 0, plot_->legend);
  side->addElement(1, 0, new QCPLayoutElement(plot_));
  side->setRowStretchFactors({0.001, 1});
  setUpInteractions(plot_);
  note_ = addCornerText(plot_, Qt::AlignLeft);
  installReadout(plot_, [this](const QString& name, double key, double value) {
    const auto when = QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(key * 1000.0));
    return QString("%1\n%2: %3")
        .arg(name, when.toString("yyyy-MM-dd hh:mm:ss"), valueText(metric_, value));
  });
  redraw();
}

void HistoryPlot::setSeries(HistorySeriesSet series) {
  series_ = std::move(series);
  redraw();
}

void HistoryPlot::setMetric(ChartMetric metric) {
  metric_ = metric;
  redraw();
}

int HistoryPlot::seriesCount() const {
  return plot_->graphCount();
}

int HistoryPlot::pointCount() const {
  int points = 0;
  for (int i = 0; i < plot_->graphCount(); ++i) points += plot_->graph(i)->dataCount();
  return points;
}

void HistoryPlot::redraw() {
  plot_->clearPlottables();
  const bool runtime = metric_ == ChartMetric::Runtime;
  plot_->yAxis->setLabel(axisLabel(metric_));
  std::size_t shown = 0;
  for (const auto& series : series_.series) shown += static_cast<std::size_t>(series.at.size());
  const bool bars = shown <= kMaxPointsWithBars;
  // Thin, aliased lines take the raster engine's fast path, so that plotting thousands of runs
  // stays interactive; exports draw antialiased whatever the screen does (chartexport.cpp).
  const bool widePens = shown <= kMaxPointsAntialiased;

  int colour = 0;
  for (const auto& series : series_.series) {
    const auto n = series.at.size();
    QVector<double> y(n), low(n), high(n);
    for (qsizetype i = 0; i < n; ++i) {
      const double median = series.median[i], fastest = series.min[i], slowest = series.max[i];
      if (runtime) {
        y[i] = median * 1e6;
        low[i] = (median - fastest) * 1e6;
        high[i] = (slowest - median) * 1e6;
      } else {
        // Bandwidth at the slowest and fastest sample bound the median's bandwidth.
        const double gb = series.bandwidth[i] * 1e-9;
        y[i] = gb;
        low[i] = gb - gb * median / slowest;
        high[i] = gb * median / fastest - gb;
      }
    }
    QCPGraph* graph = plot_->addGraph();
    graph->setName(QString("%1 (%2)").arg(series.name).arg(series.runs));
    graph->setPen(QPen(seriesColour(colour++), widePens ? 1.5 : 1.0));
    // Markers for readable numbers of runs; beyond that they cost more to draw than they tell.
    if (n <= qsizetype{kMaxPointsWithMarkers})
      graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
    graph->setData(series.at, y, true);
    if (!bars) continue;
    auto* spread = new QCPErrorBars(plot_->xAxis, plot_->yAxis);
    spread->setDataPlottable(graph);
    spread->setData(low, high);
    spread->setPen(QPen(graph->pen().color(), 1.0));
    spread->removeFromLegend();
  }
  QStringList note;
  if (series_.hidden > 0)
    note << tr("%n more series not shown: select fewer runs", nullptr, int(series_.hidden));
  if (series_.thinned)
    note << tr("long series show the fastest and slowest run of each of %1 slices")
                .arg(kMaxSeriesPoints / 2);
  if (!bars && shown > 0)
    note << tr("min-max bars are shown for up to %1 runs").arg(kMaxPointsWithBars);
  note_->setText(note.join("\n"));
  note_->setVisible(!note.isEmpty());
  plot_->setNotAntialiasedElements(widePens ? QCP::aeNone : QCP::aeAll);
  plot_->legend->setVisible(!series_.series.empty());
  plot_->rescaleAxes();
  padRanges(plot_);
  // Tick labels as fine as the span needs: seconds within a session, dates across months.
  const double span = plot_->xAxis->range().size();
  dateTicker_->setDateTimeFormat(span < 3600        ? "hh:mm:ss"
                                 : span < 2 * 86400 ? "MM-dd\nhh:mm"
                                                    : "yyyy-MM-dd");
  plot_->replot();
}

}  // namespace kwb
