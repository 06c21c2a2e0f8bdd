#include "widgets/compareplot.h"

#include <QSet>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

#include <qcustomplot.h>

#include "core/verdict.h"
#include "widgets/plotstyle.h"

namespace kwb {
namespace {

// A run's settings as name=value words: element type, problem and launch.
QStringList settingsOf(const HistoryPoint& row) {
  QStringList words = (row.problem + " " + row.launch).split(' ', Qt::SkipEmptyParts);
  if (!row.dtype.isEmpty() && !words.contains("dtype=" + row.dtype)) words << "dtype=" + row.dtype;
  return words;
}

// Labels that say what tells the bars apart: the kernel and the settings whose value differs
// between them; the settings all of them share go to `shared`, once.
QStringList distinguishingLabels(const std::vector<const HistoryPoint*>& rows, QString& shared) {
  std::map<QString, QSet<QString>> values;
  for (const HistoryPoint* row : rows)
    for (const QString& word : settingsOf(*row)) values[word.section('=', 0, 0)] << word;
  QStringList labels;
  for (const HistoryPoint* row : rows) {
    QStringList differing;
    for (const QString& word : settingsOf(*row))
      if (values[word.section('=', 0, 0)].size() > 1) differing << word;
    labels << row->kernel + (differing.isEmpty() ? QString() : "\n" + differing.join(' '));
  }
  QStringList common;
  for (const auto& [name, words] : values)
    if (words.size() == 1) common << *words.begin();
  shared = common.join(' ');
  return labels;
}

}  // namespace

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

ComparedRuns judgeRuns(const std::vector<HistoryPoint>& rows,
                       const std::map<std::int64_t, RunResult>& runs) {
  ComparedRuns judged;
  const RunResult* reference = nullptr;  // the first run with samples
  for (const HistoryPoint& row : rows) {
    const auto full = runs.find(row.id);
    if (full == runs.end() || full->second.samples.size() < 2 || judged.contains(row.id)) continue;
    ComparedRun run{medianInterval(full->second.samples), ComparePlot::tr("reference")};
    if (!reference) {
      reference = &full->second;
    } else {
      const Verdict v = compareRuns(*reference, full->second);
      run.verdict = QString("%1x %2")
                        .arg(v.ratio, 0, 'f', 3)
                        .arg(QString::fromStdString(std::string(toString(v.kind))));
      if (v.explainedByClocks) run.verdict += ComparePlot::tr(" (clocks)");
    }
    judged.emplace(row.id, std::move(run));
  }
  return judged;
}

void ComparePlot::setRows(std::vector<HistoryPoint> rows, ComparedRuns judged) {
  rows_ = std::move(rows);
  judged_ = std::move(judged);
  redraw();
}

QStringList ComparePlot::verdictLabels() const {
  QStringList labels;
  for (const QCPItemText* item : verdicts_) labels << item->text();
  return labels;
}

void ComparePlot::setMetric(ChartMetric metric) {
  metric_ = metric;
  redraw();
}

int ComparePlot::barCount() const {
  int count = 0;
  for (int i = 0; i < plot_->plottableCount(); ++i)
    if (auto* bars = qobject_cast<QCPBars*>(plot_->plottable(i))) count += bars->dataCount();
  return count;
}

void ComparePlot::redraw() {
  plot_->clearPlottables();
  for (QCPItemText* item : verdicts_) plot_->removeItem(item);
  verdicts_.clear();
  struct Mark {
    double x, top;
    QString text;
  };
  std::vector<Mark> marks;
  const bool runtime = metric_ == ChartMetric::Runtime;
  plot_->yAxis->setLabel(axisLabel(metric_));
  // Runs from several devices (a workshop's merged histories): one colour and legend entry a
  // device, the runs of one configuration side by side under one label, and no single ceiling.
  QStringList devices;
  for (const HistoryPoint& r : rows_)
    if (r.median > 0 && !devices.contains(r.device)) devices << r.device;
  const bool byDevice = devices.size() > 1;
  std::vector<QCPBars*> bars;
  std::vector<QVector<double>> x(static_cast<std::size_t>(std::max<qsizetype>(devices.size(), 1)));
  auto y = x, low = x, high = x;
  for (qsizetype d = 0; d < std::max<qsizetype>(devices.size(), 1); ++d) {
    auto* b = new QCPBars(plot_->xAxis, plot_->yAxis);
    b->setName(byDevice ? devices[d] : runtime ? tr("median runtime") : tr("bandwidth"));
    b->setBrush(seriesColour(static_cast<int>(d)).lighter(130));
    b->setPen(QPen(seriesColour(static_cast<int>(d))));
    b->setWidth(0.8);
    bars.push_back(b);
  }
  // Groups of bars under one label: a configuration's runs on every device, device by device; a
  // run alone where the runs come from one device.
  std::vector<std::vector<const HistoryPoint*>> groups;
  QStringList keys;
  for (const HistoryPoint& row : rows_) {
    if (row.median <= 0) continue;
    const QString key = byDevice ? row.kernel + row.dtype + row.problem + row.launch
                                 : QString::number(groups.size());
    qsizetype g = keys.indexOf(key);
    if (g < 0) {
      g = keys.size();
      keys << key;
      groups.emplace_back();
    }
    groups[static_cast<std::size_t>(g)].push_back(&row);
  }
  std::vector<const HistoryPoint*> firsts;
  for (const auto& group : groups) firsts.push_back(group.front());
  QString shared;
  const QStringList labels = distinguishingLabels(firsts, shared);
  plot_->xAxis->setLabel(shared.isEmpty() || firsts.size() < 2 ? QString()
                                                               : tr("where set: %1").arg(shared));
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  double ceiling = 0;
  double position = 0;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    auto& group = groups[g];
    std::stable_sort(group.begin(), group.end(), [&](const HistoryPoint* a, const HistoryPoint* b) {
      return devices.indexOf(a->device) < devices.indexOf(b->device);
    });
    const double first = position + 1;
    for (const HistoryPoint* r : group) {
      const HistoryPoint& row = *r;
      const auto d = static_cast<std::size_t>(byDevice ? devices.indexOf(row.device) : 0);
      x[d] << ++position;
      const auto judged = judged_.find(row.id);
      const bool sampled = judged != judged_.end();
      // The bar's spread: its median's 95 % interval where the samples are here, else min to max.
      const Interval time = sampled ? judged->second.time : Interval{row.min, row.max};
      if (runtime) {
        y[d] << row.median * 1e6;
        low[d] << (row.median - time.low) * 1e6;
        high[d] << (time.high - row.median) * 1e6;
      } else {
        const Interval rate = sampled ? rateInterval(row.bandwidth, row.median, time)
                                      : Interval{row.bandwidth, row.bandwidth};
        y[d] << row.bandwidth * 1e-9;
        low[d] << (row.bandwidth - rate.low) * 1e-9;
        high[d] << (rate.high - row.bandwidth) * 1e-9;
        if (row.ceilingFraction > 0)
          ceiling = std::max(ceiling, row.bandwidth / row.ceilingFraction);
      }
      if (sampled)
        marks.push_back({position, y[d].back() + high[d].back(), judged->second.verdict});
    }
    ticker->addTick((first + position) / 2, labels[static_cast<qsizetype>(g)]);
    if (byDevice) position += 0.5;  // a gap between configurations
  }
  for (std::size_t d = 0; d < bars.size(); ++d) {
    bars[d]->setData(x[d], y[d], true);
    if (!runtime && marks.empty()) continue;
    auto* spread = new QCPErrorBars(plot_->xAxis, plot_->yAxis);
    spread->setDataPlottable(bars[d]);
    spread->setData(low[d], high[d]);
    spread->removeFromLegend();
  }
  if (byDevice) ceiling = 0;
  plot_->legend->setVisible(byDevice);
  plot_->xAxis->setTicker(ticker);
  plot_->xAxis->setTickLabelRotation(groups.size() > 6 ? 30 : 0);
  plot_->xAxis->setRange(0.3, position + 0.7);
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
  for (const Mark& mark : marks) {
    auto* item = new QCPItemText(plot_);
    item->position->setCoords(mark.x, mark.top);
    item->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    item->setText(mark.text);
    item->setFont(QFont(font().family(), 8));
    verdicts_.push_back(item);
    top = std::max(top, mark.top);
  }
  if (!marks.empty())
    plot_->xAxis->setLabel(plot_->xAxis->label() + (plot_->xAxis->label().isEmpty() ? "" : "\n") +
                           tr("bars: 95 % interval of each median; above: time against the first"));
  // Room above the bars for the legend and the verdicts.
  plot_->yAxis->setRange(0, top * (byDevice ? 1.5 : marks.empty() ? 1.12 : 1.2));
  plot_->replot();
}

}  // namespace kwb
