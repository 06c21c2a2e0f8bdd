#include "widgets/wavesplot.h"

#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include "core/waves.h"
#include "widgets/plotstyle.h"

namespace kwb {
namespace {

// Waves drawn at most: the last ones, where the tail is; the full ones before are alike.
constexpr int kMostWaves = 16;

}  // namespace

WavesPlot::WavesPlot(QWidget* parent)
    : QWidget(parent), sentence_(new QLabel(this)), plot_(new QCustomPlot(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 0);
  sentence_->setWordWrap(true);
  sentence_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(sentence_);
  layout->addWidget(plot_, 1);
  setUpInteractions(plot_);

  wavesRect_ = plot_->axisRect();
  wavesRect_->axis(QCPAxis::atBottom)->setLabel(tr("SM"));
  wavesRect_->axis(QCPAxis::atLeft)->setLabel(tr("wave"));
  sweepRect_ = new QCPAxisRect(plot_);
  sweepRect_->axis(QCPAxis::atLeft)->setLabel(tr("median [us]"));
  // The legend belongs to the sweep: measured against predicted.
  wavesRect_->insetLayout()->take(plot_->legend);
  sweepRect_->insetLayout()->addElement(plot_->legend, Qt::AlignTop | Qt::AlignLeft);
  plot_->legend->setVisible(true);
  setRuns({}, 0);
}

QString WavesPlot::sentence() const {
  return sentence_->text();
}

void WavesPlot::setRuns(const std::vector<RunResult>& runs, int smCount, const QString& swept,
                        int shown) {
  plot_->clearPlottables();
  plot_->clearItems();
  wavesDrawn_ = predicted_ = 0;
  if (runs.empty()) {
    sentence_->setText(tr("Run a kernel to see its grid as waves of blocks over the SMs."));
  } else {
    const bool chosen = shown >= 0 && static_cast<std::size_t>(shown) < runs.size();
    drawWaves(chosen ? runs[static_cast<std::size_t>(shown)] : runs.back(), smCount);
    // A lesson's runs: the baseline's waves above the step's drawn ones.
    if (swept.isEmpty() && runs.size() > 1) {
      QStringList before;
      for (std::size_t i = 0; i + 1 < runs.size(); ++i) {
        const auto l = widestLaunch(runs[i], smCount);
        before << QString::fromStdString(runs[i].family + "/" + runs[i].variant + ": ") +
                      (l ? QString::fromStdString(wavesSentence(*l, runs[i].stats.median))
                         : tr("no waves recorded"));
      }
      sentence_->setText(before.join("\n") + "\n" + sentence_->text());
    }
  }
  drawSweep(runs, smCount, swept);
  plot_->replot();
}

void WavesPlot::drawWaves(const RunResult& run, int smCount) {
  const auto launches = waveLaunches(run, smCount);
  const QString what = QString::fromStdString(run.family + "/" + run.variant + " " +
                                              run.problem.toText() + " " + run.launch.toText());
  if (launches.empty()) {
    sentence_->setText(
        tr("%1: no waves recorded. A run records them from the launches it sees; not for graph "
           "launches, under a profiler that holds CUPTI, or in runs from before.")
            .arg(what));
    return;
  }
  QStringList lines{what};
  for (const WaveLaunch& l : launches)
    lines << QString::fromStdString(
        wavesSentence(l, run.stats.median / static_cast<double>(launches.size())));
  if (launches.size() > 1) lines << tr("Drawn: the launch with the most blocks.");

  const WaveLaunch l = *widestLaunch(run, smCount);
  const int waves = static_cast<int>(std::ceil(l.waves()));
  const int first = std::max(0, waves - kMostWaves);
  wavesDrawn_ = waves - first;
  QCPAxis* x = wavesRect_->axis(QCPAxis::atBottom);
  QCPAxis* y = wavesRect_->axis(QCPAxis::atLeft);
  auto* map = new QCPColorMap(x, y);
  map->setName(tr("blocks"));
  map->data()->setSize(smCount, wavesDrawn_);
  map->data()->setRange(QCPRange(0, smCount - 1), QCPRange(first + 1, waves));
  for (int w = first; w < waves; ++w)
    for (int sm = 0; sm < smCount; ++sm) {
      const int blocks = l.blocksAt(sm, w);
      map->data()->setCell(sm, w - first, blocks == 0 ? 0.0 : blocks < l.residentPerSm ? 0.5 : 1.0);
    }
  QCPColorGradient gradient;
  gradient.setColorStopAt(0, QColor(225, 225, 225));
  gradient.setColorStopAt(0.5, QColor(255, 127, 14));
  gradient.setColorStopAt(1, QColor(31, 119, 180));
  gradient.setLevelCount(3);
  map->setGradient(gradient);
  map->setDataRange(QCPRange(0, 1));
  map->setInterpolate(false);
  map->removeFromLegend();
  // Whole waves on the axis: 1, 2, 5, 10 ... apart.
  auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
  ticker->setTickStep(1.0);
  ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  y->setTicker(ticker);
  x->setRange(-0.5, smCount - 0.5);
  y->setRange(first + 0.5, waves + 0.5);
  lines << tr("Blue: an SM's %n block slot(s) full; orange: a partial wave; grey: idle.", nullptr,
              l.residentPerSm);
  if (first > 0) lines << tr("Waves 1 to %1 are full and not drawn.").arg(first);
  sentence_->setText(lines.join("\n"));
}

void WavesPlot::drawSweep(const std::vector<RunResult>& runs, int smCount, const QString& swept) {
  const auto model = swept.isEmpty() ? std::nullopt : fitWaves(runs, smCount);
  const bool shown = plot_->plotLayout()->hasElement(1, 0);
  if (!model) {
    if (shown) {
      plot_->plotLayout()->take(sweepRect_);
      plot_->plotLayout()->simplify();
    }
    return;
  }
  if (!shown) plot_->plotLayout()->addElement(1, 0, sweepRect_);
  QCPAxis* x = sweepRect_->axis(QCPAxis::atBottom);
  QCPAxis* y = sweepRect_->axis(QCPAxis::atLeft);
  x->setLabel(swept);
  std::vector<std::pair<double, const RunResult*>> ordered;
  for (const RunResult& run : runs)
    if (run.stats.median > 0)
      ordered.push_back({std::strtod(run.param(swept.toStdString()).c_str(), nullptr), &run});
  std::sort(ordered.begin(), ordered.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  auto* measured = plot_->addGraph(x, y);
  measured->setName(tr("measured"));
  measured->setPen(QPen(seriesColour(0), 2));
  measured->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 6));
  auto* predicted = plot_->addGraph(x, y);
  predicted->setName(tr("waves predict (fitted: %1 GB/s, %2 us fixed)")
                         .arg(1e-9 / model->secondsPerByte, 0, 'f', 0)
                         .arg(model->overhead * 1e6, 0, 'f', 1));
  predicted->setPen(QPen(seriesColour(1), 1.5, Qt::DashLine));
  for (const auto& [value, run] : ordered) {
    measured->addData(value, run->stats.median * 1e6);
    if (const auto l = widestLaunch(*run, smCount)) {
      predicted->addData(value, model->predict(*run, *l) * 1e6);
      ++predicted_;
    }
  }
  // A size swept in powers of two reads best on a log axis.
  const bool log = ordered.front().first > 0 && ordered.back().first > 50 * ordered.front().first;
  x->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
  if (log)
    x->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
  else
    x->setTicker(QSharedPointer<QCPAxisTicker>::create());
  x->rescale();
  y->rescale();
  const QCPRange xr = x->range(), yr = y->range();
  if (log)
    x->setRange(xr.lower / 1.2, xr.upper * 1.2);
  else
    x->setRange(xr.lower - 0.05 * xr.size(), xr.upper + 0.05 * xr.size());
  y->setRange(0, yr.upper * 1.1);
}

}  // namespace kwb
