#include "widgets/sweepplot.h"

#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include "core/format.h"
#include "core/verdict.h"
#include "widgets/plotstyle.h"

namespace kwb {
namespace {

constexpr double kMicro = 1e6;
constexpr double kGiga = 1e-9;

// A parameter value as a number, or NaN for "auto" and names.
double numeric(const std::string& text) {
  try {
    std::size_t used = 0;
    const double value = std::stod(text, &used);
    return used == text.size() ? value : std::nan("");
  } catch (const std::exception&) {
    return std::nan("");
  }
}

}  // namespace

SweepPlot::SweepPlot(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);

  plot_->yAxis2->setVisible(true);
  plot_->yAxis->setLabel(tr("median runtime [µs]"));
  plot_->yAxis2->setLabel(tr("bandwidth [GB/s]"));
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->axisRect()->setRangeDragAxes({plot_->xAxis, plot_->yAxis, plot_->yAxis2});
  plot_->axisRect()->setRangeZoomAxes({plot_->xAxis, plot_->yAxis, plot_->yAxis2});

  ceiling_ = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
  ceiling_->setName(tr("copy ceiling"));
  ceiling_->setPen(QPen(QColor(44, 160, 44), 1.5, Qt::DashLine));
  peak_ = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
  peak_->setName(tr("theoretical peak"));
  peak_->setPen(QPen(QColor(120, 120, 120), 1, Qt::DotLine));

  // The legend in a row of its own under the axes: however many series, it never hides data.
  // Shown once there is data to name.
  plot_->legend->setVisible(false);
  plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  plot_->legend->setWrap(2);  // a row per series: its runtime and its bandwidth
  plot_->plotLayout()->addElement(1, 0, plot_->legend);
  plot_->plotLayout()->setRowStretchFactor(1, 0.001);

  readout_ = addCornerText(plot_, Qt::AlignLeft);
  connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
    showReadout(event->position().x(), event->position().y());
  });
}

int SweepPlot::tiedPointCount() const {
  return tied_ ? tied_->dataCount() : 0;
}

void SweepPlot::clearSeries() {
  for (const Series& s : series_) {
    plot_->removePlottable(s.spread);
    plot_->removeGraph(s.runtime);
    plot_->removeGraph(s.bandwidth);
  }
  series_.clear();
  if (tied_) plot_->removeGraph(tied_);
  tied_ = nullptr;
}

void SweepPlot::setRuns(const std::vector<RunResult>& runs, const QString& param, bool logX,
                        const QString& unit, const QString& seriesParam) {
  param_ = param;
  seriesParam_ = seriesParam;
  points_.clear();
  labels_.clear();
  clearSeries();
  const std::string name = param.toStdString();
  bool allNumeric = true;
  for (const auto& run : runs)
    if (run.stats.count > 0 && std::isnan(numeric(run.param(name)))) allNumeric = false;

  // Series in order of first appearance; a text axis places each value once, shared by all.
  std::vector<QString> seriesNames;
  std::vector<QString> axisValues;
  const auto indexOf = [](std::vector<QString>& list, const QString& value) {
    const auto it = std::find(list.begin(), list.end(), value);
    if (it != list.end()) return static_cast<std::size_t>(it - list.begin());
    list.push_back(value);
    return list.size() - 1;
  };
  struct Data {
    QVector<double> x, seconds, bandwidth, low, high;
  };
  std::vector<Data> bySeries;
  double ceiling = 0, peak = 0;
  QVector<double> allX;
  std::vector<double> bandwidths;
  std::vector<Interval> intervals;
  for (const auto& run : runs) {
    if (run.stats.count == 0) continue;  // failed or unverified points have no time
    const QString value = QString::fromStdString(run.param(name));
    const QString series = seriesParam.isEmpty()
                               ? QString()
                               : QString::fromStdString(run.param(seriesParam.toStdString()));
    const double px = allNumeric ? numeric(value.toStdString())
                                 : static_cast<double>(indexOf(axisValues, value) + 1);
    const std::size_t s = indexOf(seriesNames, series);
    if (s == bySeries.size()) bySeries.emplace_back();
    points_.push_back({px, run.stats.median, run.bandwidth, series});
    labels_.push_back(value);
    Data& d = bySeries[s];
    d.x << px;
    d.seconds << run.stats.median * kMicro;
    const Interval time = run.samples.empty() ? Interval{run.stats.median, run.stats.median}
                                              : medianInterval(run.samples);
    d.low << (run.stats.median - time.low) * kMicro;
    d.high << (time.high - run.stats.median) * kMicro;
    bandwidths.push_back(run.bandwidth);
    intervals.push_back(rateInterval(run.bandwidth, run.stats.median, time));
    d.bandwidth << run.bandwidth * kGiga;
    allX << px;
    ceiling = std::max(ceiling, run.ceilingBandwidth);
    peak = std::max(peak, run.peakBandwidth);
  }
  for (std::size_t s = 0; s < bySeries.size(); ++s) {
    // Green is the copy ceiling's: series pass it by.
    const QColor colour = seriesColour(static_cast<int>(s >= 2 ? s + 1 : s));
    const QString suffix =
        seriesParam.isEmpty() ? QString() : ", " + seriesParam + "=" + seriesNames[s];
    Series series{plot_->addGraph(plot_->xAxis, plot_->yAxis), nullptr,
                  plot_->addGraph(plot_->xAxis, plot_->yAxis2)};
    series.runtime->setName(suffix.isEmpty() ? tr("runtime (median; bars: its 95 % interval)")
                                             : tr("runtime") + suffix);
    series.runtime->setPen(QPen(colour, 2));
    series.runtime->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
    series.runtime->setData(bySeries[s].x, bySeries[s].seconds);
    series.spread = new QCPErrorBars(plot_->xAxis, plot_->yAxis);
    series.spread->setDataPlottable(series.runtime);
    series.spread->setPen(QPen(colour));
    series.spread->removeFromLegend();
    series.spread->setData(bySeries[s].low, bySeries[s].high);
    series.bandwidth->setName(tr("bandwidth") + suffix);
    // One series: runtime and bandwidth in colours of their own; several: a colour a series.
    series.bandwidth->setPen(
        QPen(seriesParam.isEmpty() ? seriesColour(1) : colour, 2, Qt::DashLine));
    series.bandwidth->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, 7));
    series.bandwidth->setData(bySeries[s].x, bySeries[s].bandwidth);
    series_.push_back(series);
  }
  // Rings around the points the sweep cannot tell from the best bandwidth.
  const std::vector<bool> tied = tiedWithBest(bandwidths, intervals);
  QVector<double> tiedX, tiedY;
  for (std::size_t i = 0; i < tied.size(); ++i)
    if (tied[i] && tied.size() > 1) {
      tiedX << points_[i].x;
      tiedY << points_[i].bandwidth * kGiga;
    }
  if (!tiedX.isEmpty()) {
    tied_ = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
    tied_->setName(tr("tied with the best bandwidth (95 %)"));
    tied_->setLineStyle(QCPGraph::lsNone);
    tied_->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(20, 160, 255), 2), Qt::NoBrush, 16));
    tied_->setData(tiedX, tiedY);
  }
  std::sort(allX.begin(), allX.end());
  const QVector<double>& x = allX;

  const bool log = logX && allNumeric;
  plot_->xAxis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
  if (log) {
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
  } else if (!allNumeric) {
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (std::size_t i = 0; i < axisValues.size(); ++i)
      ticker->addTick(static_cast<double>(i + 1), axisValues[i]);
    plot_->xAxis->setTicker(ticker);
  } else {
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
  }
  plot_->xAxis->setLabel(unit.isEmpty() ? param : param + " [" + unit + "]");

  // The ceiling and the peak span the plotted x range.
  const auto span = [&](QCPGraph* graph, double value) {
    graph->data()->clear();
    graph->setVisible(value > 0 && !x.isEmpty());
    if (graph->visible())
      graph->addToLegend();
    else
      graph->removeFromLegend();  // a legend of lines not drawn says nothing
    if (graph->visible()) graph->setData({x.front(), x.back()}, {value * kGiga, value * kGiga});
  };
  span(ceiling_, ceiling);
  span(peak_, peak);
  plot_->legend->setVisible(!x.isEmpty());

  plot_->rescaleAxes();
  if (!x.isEmpty()) {
    const auto pad = [](QCPAxis* axis, bool logScale) {
      const QCPRange r = axis->range();
      axis->setRange(
          logScale ? QCPRange(r.lower / 1.5, r.upper * 1.5)
                   : QCPRange(r.lower - 0.05 * r.size() - 0.5, r.upper + 0.05 * r.size() + 0.5));
    };
    pad(plot_->xAxis, log);
    plot_->yAxis->setRange(0, plot_->yAxis->range().upper * 1.15);
    plot_->yAxis2->setRange(0, std::max(plot_->yAxis2->range().upper, peak * kGiga) * 1.1);
  }
  readout_->setText({});
  readout_->setVisible(false);
  plot_->replot();
}

void SweepPlot::showReadout(double pixelX, double pixelY) {
  if (points_.empty()) return;
  // Nearest in x first; among the series there, the one whose runtime is nearest the mouse.
  const auto distance = [&](const Point& p) {
    return std::abs(plot_->xAxis->coordToPixel(p.x) - pixelX) * 1000 +
           std::abs(plot_->yAxis->coordToPixel(p.seconds * kMicro) - pixelY);
  };
  const auto nearest = std::min_element(
      points_.begin(), points_.end(), [&](auto& a, auto& b) { return distance(a) < distance(b); });
  const auto i = static_cast<std::size_t>(nearest - points_.begin());
  const QString series =
      seriesParam_.isEmpty() ? QString() : ", " + seriesParam_ + " = " + nearest->series;
  showText(
      plot_, readout_,
      QString("%1 = %2%3\n%4, %5")
          .arg(param_, labels_[i], series, QString::fromStdString(formatSeconds(nearest->seconds)),
               QString::fromStdString(formatBandwidth(nearest->bandwidth))));
}

}  // namespace kwb
