#include "widgets/historyplot.h"

#include <QDateTime>
#include <QVBoxLayout>

#include <algorithm>
#include <unordered_map>

#include <qcustomplot.h>

#include "widgets/plotstyle.h"

namespace kwb {
namespace {

constexpr std::size_t kMaxSeries = 10;
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

void HistoryPlot::setRows(HistorySelection rows) {
  rows_ = std::move(rows);
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
  std::unordered_map<int, std::vector<const HistoryRow*>> bySeries;
  for (const HistoryRow* row : rows_.rows)
    if (row->median > 0) bySeries[row->seriesId].push_back(row);
  // The series with the most runs, at most kMaxSeries of them: more lines would not be readable.
  std::vector<std::vector<const HistoryRow*>> series;
  for (auto& entry : bySeries) series.push_back(std::move(entry.second));
  std::sort(series.begin(), series.end(), [](const auto& a, const auto& b) {
    return a.size() != b.size() ? a.size() > b.size() : a.front()->series < b.front()->series;
  });
  const std::size_t hidden = series.size() > kMaxSeries ? series.size() - kMaxSeries : 0;
  series.resize(std::min(series.size(), kMaxSeries));
  std::size_t shown = 0;
  for (const auto& s : series) shown += s.size();
  const bool bars = shown <= kMaxPointsWithBars;
  // Thin, aliased lines take the raster engine's fast path, so that plotting thousands of runs
  // stays interactive; exports draw antialiased whatever the screen does (chartexport.cpp).
  const bool widePens = shown <= kMaxPointsAntialiased;

  int colour = 0;
  for (auto& points : series) {
    std::sort(points.begin(), points.end(),
              [](auto* a, auto* b) { return a->startedAt < b->startedAt; });
    QVector<double> x, y, low, high;
    for (const HistoryRow* r : points) {
      x << static_cast<double>(r->startedAt) / 1000.0;
      if (runtime) {
        y << r->median * 1e6;
        low << (r->median - r->min) * 1e6;
        high << (r->max - r->median) * 1e6;
      } else {
        // Bandwidth at the slowest and fastest sample bound the median's bandwidth.
        const double gb = r->bandwidth * 1e-9;
        y << gb;
        low << gb - gb * r->median / r->max;
        high << gb * r->median / r->min - gb;
      }
    }
    QCPGraph* graph = plot_->addGraph();
    graph->setName(QString("%1 (%2)").arg(points.front()->series).arg(points.size()));
    graph->setPen(QPen(seriesColour(colour++), widePens ? 1.5 : 1.0));
    // Markers for readable numbers of runs; beyond that they cost more to draw than they tell.
    if (points.size() <= kMaxPointsWithMarkers)
      graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
    graph->setData(x, y, true);
    if (!bars) continue;
    auto* spread = new QCPErrorBars(plot_->xAxis, plot_->yAxis);
    spread->setDataPlottable(graph);
    spread->setData(low, high);
    spread->setPen(QPen(graph->pen().color(), 1.0));
    spread->removeFromLegend();
  }
  QStringList note;
  if (hidden > 0) note << tr("%n more series not shown: select fewer runs", nullptr, int(hidden));
  if (!bars && shown > 0)
    note << tr("min-max bars are shown for up to %1 runs").arg(kMaxPointsWithBars);
  note_->setText(note.join("\n"));
  note_->setVisible(!note.isEmpty());
  plot_->setNotAntialiasedElements(widePens ? QCP::aeNone : QCP::aeAll);
  plot_->legend->setVisible(!series.empty());
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
