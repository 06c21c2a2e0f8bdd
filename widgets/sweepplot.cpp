#include "widgets/sweepplot.h"

#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include "core/format.h"
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

  runtime_ = plot_->addGraph(plot_->xAxis, plot_->yAxis);
  runtime_->setName(tr("runtime (median; bars: min to max)"));
  runtime_->setPen(QPen(QColor(31, 119, 180), 2));
  runtime_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
  spread_ = new QCPErrorBars(plot_->xAxis, plot_->yAxis);
  spread_->setDataPlottable(runtime_);
  spread_->setPen(QPen(QColor(31, 119, 180)));
  spread_->removeFromLegend();

  bandwidth_ = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
  bandwidth_->setName(tr("bandwidth"));
  bandwidth_->setPen(QPen(QColor(255, 127, 14), 2));
  bandwidth_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, 7));

  ceiling_ = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
  ceiling_->setName(tr("copy ceiling"));
  ceiling_->setPen(QPen(QColor(44, 160, 44), 1.5, Qt::DashLine));
  peak_ = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
  peak_->setName(tr("theoretical peak"));
  peak_->setPen(QPen(QColor(120, 120, 120), 1, Qt::DotLine));

  plot_->legend->setVisible(true);
  plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);

  readout_ = addCornerText(plot_, Qt::AlignLeft);
  connect(plot_, &QCustomPlot::mouseMove, this,
          [this](QMouseEvent* event) { showReadout(event->position().x()); });
}

void SweepPlot::setRuns(const std::vector<RunResult>& runs, const QString& param, bool logX,
                        const QString& unit) {
  param_ = param;
  points_.clear();
  labels_.clear();
  const std::string name = param.toStdString();
  bool allNumeric = true;
  for (const auto& run : runs)
    if (run.stats.count > 0 && std::isnan(numeric(run.param(name)))) allNumeric = false;

  QVector<double> x, seconds, bandwidth, low, high;
  double ceiling = 0, peak = 0;
  for (const auto& run : runs) {
    if (run.stats.count == 0) continue;  // failed or unverified points have no time
    const std::string value = run.param(name);
    const double px = allNumeric ? numeric(value) : static_cast<double>(labels_.size() + 1);
    points_.push_back({px, run.stats.median, run.bandwidth});
    labels_.push_back(QString::fromStdString(value));
    x << px;
    seconds << run.stats.median * kMicro;
    low << (run.stats.median - run.stats.min) * kMicro;
    high << (run.stats.max - run.stats.median) * kMicro;
    bandwidth << run.bandwidth * kGiga;
    ceiling = std::max(ceiling, run.ceilingBandwidth);
    peak = std::max(peak, run.peakBandwidth);
  }
  runtime_->setData(x, seconds);
  spread_->setData(low, high);
  bandwidth_->setData(x, bandwidth);

  const bool log = logX && allNumeric;
  plot_->xAxis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
  if (log) {
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
  } else if (!allNumeric) {
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (std::size_t i = 0; i < labels_.size(); ++i)
      ticker->addTick(static_cast<double>(i + 1), labels_[i]);
    plot_->xAxis->setTicker(ticker);
  } else {
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
  }
  plot_->xAxis->setLabel(unit.isEmpty() ? param : param + " [" + unit + "]");

  // The ceiling and the peak span the plotted x range.
  const auto span = [&](QCPGraph* graph, double value) {
    graph->data()->clear();
    graph->setVisible(value > 0 && !x.isEmpty());
    if (graph->visible()) graph->setData({x.front(), x.back()}, {value * kGiga, value * kGiga});
  };
  span(ceiling_, ceiling);
  span(peak_, peak);

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

void SweepPlot::showReadout(double pixelX) {
  if (points_.empty()) return;
  const auto nearest = std::min_element(points_.begin(), points_.end(), [&](auto& a, auto& b) {
    return std::abs(plot_->xAxis->coordToPixel(a.x) - pixelX) <
           std::abs(plot_->xAxis->coordToPixel(b.x) - pixelX);
  });
  const auto i = static_cast<std::size_t>(nearest - points_.begin());
  showText(plot_, readout_,
           QString("%1 = %2\n%3, %4")
               .arg(param_, labels_[i], QString::fromStdString(formatSeconds(nearest->seconds)),
                    QString::fromStdString(formatBandwidth(nearest->bandwidth))));
}

}  // namespace kwb
