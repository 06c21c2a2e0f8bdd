#include "widgets/rooflineplot.h"

#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>

#include <qcustomplot.h>

#include "core/roofline.h"
#include "widgets/plotstyle.h"

namespace kwb {
namespace {

constexpr double kGiga = 1e9;

// A roof as a line over the intensity range: bandwidth times intensity up to where it meets the
// highest throughput, or flat at a throughput from where the highest bandwidth meets it.
void addRoof(QCustomPlot* plot, const CeilingSpec& spec, double value, double from, double to,
             double topBandwidth, double topFlops, const QPen& pen) {
  QCPGraph* roof = plot->addGraph();
  roof->setName(QString("%1 %2").arg(QString::fromStdString(std::string(spec.label)),
                                     QString::fromStdString(formatCeiling(spec, value))));
  roof->setPen(pen);
  if (spec.bandwidth) {
    const double end = topFlops > 0 ? std::min(to, topFlops / value) : to;
    roof->setData({from, end}, {from * value / kGiga, end * value / kGiga});
  } else {
    const double start = topBandwidth > 0 ? std::max(from, value / topBandwidth) : from;
    roof->setData({start, to}, {value / kGiga, value / kGiga});
  }
}

}  // namespace

RooflinePlot::RooflinePlot(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
  for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    axis->setNumberFormat("gb");
  }
  plot_->xAxis->setLabel(
      tr("arithmetic intensity [FLOP/byte]: discs declared, rings counted by the hardware"));
  plot_->yAxis->setLabel(tr("achieved [GFLOP/s]"));
  plot_->legend->setVisible(true);
  plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
  setUpInteractions(plot_);
  note_ = addCornerText(plot_, Qt::AlignLeft);
  installReadout(plot_, [](const QString& name, double key, double value) {
    return QString("%1\n%2 FLOP/byte, %3 GFLOP/s")
        .arg(name)
        .arg(key, 0, 'g', 3)
        .arg(value, 0, 'f', 1);
  });
  redraw();
}

void RooflinePlot::setCeilings(std::vector<DeviceCeiling> ceilings) {
  ceilings_ = std::move(ceilings);
  redraw();
}

void RooflinePlot::setRuns(const std::vector<RunResult>& runs, const QString& swept, bool path) {
  runs_ = runs;
  swept_ = swept;
  path_ = path;
  redraw();
}

QString RooflinePlot::note() const {
  return note_->text();
}

void RooflinePlot::redraw() {
  plot_->clearPlottables();
  points_ = above_ = measured_ = 0;
  // The points, grouped by the swept value in the order the sweep ran them.
  std::vector<std::pair<QString, std::vector<std::pair<RooflinePoint, bool>>>> groups;
  // Where the counters were read, each group's points as the hardware counted them.
  std::map<QString, std::vector<RooflinePoint>> counted;
  double low = INFINITY, high = 0;
  for (const RunResult& run : runs_) {
    const auto point = rooflinePoint(run);
    const auto measured = measuredRooflinePoint(run);
    if (!point && !measured) continue;
    QString value = swept_.isEmpty()
                        ? tr("runs")
                        : swept_ + "=" + QString::fromStdString(run.param(swept_.toStdString()));
    if (path_)
      value = QString("%1. %2").arg(groups.size() + 1).arg(QString::fromStdString(run.variant));
    auto group =
        std::find_if(groups.begin(), groups.end(), [&](auto& g) { return g.first == value; });
    if (group == groups.end()) group = groups.insert(groups.end(), {value, {}});
    if (measured) {
      counted[value].push_back(*measured);
      ++measured_;
      low = std::min(low, measured->intensity);
      high = std::max(high, measured->intensity);
    }
    if (!point) continue;
    const auto reading = readRoofline(run, ceilings_);
    const bool above = reading && reading->aboveRoof;
    group->second.push_back({*point, above});
    low = std::min(low, point->intensity);
    high = std::max(high, point->intensity);
  }
  // The roofs span the points and the ridges, a decade either side.
  double ridgeLow = INFINITY, ridgeHigh = 0;
  std::map<std::string, double> ceiling;
  for (const DeviceCeiling& c : ceilings_) ceiling[c.name] = c.value;
  for (const char* memory : {"dram", "l2"})
    for (const char* compute : {"fp32", "fp64", "fp16"})
      if (ceiling.count(memory) && ceiling.count(compute)) {
        ridgeLow = std::min(ridgeLow, ceiling[compute] / ceiling[memory]);
        ridgeHigh = std::max(ridgeHigh, ceiling[compute] / ceiling[memory]);
      }
  const double from =
      std::min(std::isfinite(low) ? low : 1.0, std::isfinite(ridgeLow) ? ridgeLow : 1.0) / 10;
  const double to = std::max(high, ridgeHigh) * 10;
  const struct {
    const char* name;
    QPen pen;
  } roofs[] = {{"dram", QPen(QColor(44, 160, 44), 2)},
               {"l2", QPen(QColor(44, 160, 44), 1.5, Qt::DashLine)},
               {"fp32", QPen(QColor(90, 90, 90), 2)},
               {"fp16", QPen(QColor(90, 90, 90), 1.5, Qt::DashLine)},
               {"fp64", QPen(QColor(90, 90, 90), 1.5, Qt::DotLine)}};
  double topBandwidth = 0, topFlops = 0;
  for (const auto& roof : roofs)
    if (const auto found = ceiling.find(roof.name); found != ceiling.end()) {
      double& top = ceilingSpec(roof.name)->bandwidth ? topBandwidth : topFlops;
      top = std::max(top, found->second);
    }
  for (const auto& roof : roofs)
    if (const auto found = ceiling.find(roof.name); found != ceiling.end())
      addRoof(plot_, *ceilingSpec(roof.name), found->second, from, to, topBandwidth, topFlops,
              roof.pen);
  if (path_ && groups.size() > 1) {
    auto* line = new QCPCurve(plot_->xAxis, plot_->yAxis);
    line->setName(tr("baseline to step"));
    line->setPen(QPen(QColor(120, 120, 120), 1.5, Qt::DashLine));
    double order = 0;
    for (const auto& group : groups)
      for (const auto& entry : group.second)
        line->addData(order++, entry.first.intensity, entry.first.flopsPerSecond / kGiga);
  }
  int colour = 0;
  for (const auto& [name, points] : groups) {
    if (const auto found = counted.find(name); found != counted.end()) {
      QCPGraph* hollow = plot_->addGraph();
      hollow->setName(tr("%1, counted").arg(name));
      hollow->setLineStyle(QCPGraph::lsNone);
      hollow->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle,
                                              QPen(seriesColour(colour), 2), Qt::NoBrush, 11));
      for (const RooflinePoint& p : found->second)
        hollow->addData(p.intensity, p.flopsPerSecond / kGiga);
    }
    QCPGraph* graph = plot_->addGraph();
    graph->setName(name);
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, seriesColour(colour++), 8));
    QCPGraph* crosses = nullptr;
    for (const auto& [point, above] : points) {
      ++points_;
      if (!above) {
        graph->addData(point.intensity, point.flopsPerSecond / kGiga);
        continue;
      }
      ++above_;
      if (!crosses) {
        crosses = plot_->addGraph();
        crosses->setName(tr("%1: above the roof").arg(name));
        crosses->setLineStyle(QCPGraph::lsNone);
        crosses->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssCross, QPen(Qt::red, 2.5), Qt::NoBrush, 12));
      }
      crosses->addData(point.intensity, point.flopsPerSecond / kGiga);
    }
  }
  QStringList note;
  if (ceilings_.empty())
    note << tr("No roofs measured for this device yet: kwb devices --ceilings");
  if (points_ == 0 && measured_ == 0)
    note << tr(
        "Nothing to place: runs of a variant that declares its flops go here (copies and "
        "permutes do no arithmetic)");
  if (above_ > 0)
    note << tr(
        "%n point(s) above the roof: a wrong figure (declared flops or bytes, or data from a "
        "faster memory), not a result",
        nullptr, above_);
  note_->setText(note.join("\n"));
  note_->setVisible(!note.isEmpty());
  plot_->legend->setVisible(plot_->graphCount() > 0);
  plot_->xAxis->setRange(from, to);
  double top = 0, bottom = INFINITY;
  for (int g = 0; g < plot_->graphCount(); ++g)
    for (auto it = plot_->graph(g)->data()->constBegin(); it != plot_->graph(g)->data()->constEnd();
         ++it) {
      top = std::max(top, it->value);
      bottom = std::min(bottom, it->value);
    }
  if (top > 0) plot_->yAxis->setRange(bottom / 3, top * 3);
  plot_->replot();
}

}  // namespace kwb
