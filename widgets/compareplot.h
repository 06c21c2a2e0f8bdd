#pragma once

#include <QWidget>

#include <map>
#include <vector>

#include "core/runresult.h"
#include "core/verdict.h"

#include "widgets/historypoint.h"
#include "widgets/plotstyle.h"

class QCustomPlot;
class QCPItemStraightLine;
class QCPItemText;

namespace kwb {

// A run's 95 % median interval, and its verdict against the first run with samples ("reference"
// for that one).
struct ComparedRun {
  Interval time;
  QString verdict;
};
using ComparedRuns = std::map<std::int64_t, ComparedRun>;

// Judges the rows whose full runs (samples) are given: a bootstrap of two runs' samples each, so
// the history does it off the GUI thread.
ComparedRuns judgeRuns(const std::vector<HistoryPoint>& rows,
                       const std::map<std::int64_t, RunResult>& runs);

// Runs side by side as bars (bandwidth, or median runtime), each labelled with its kernel and
// launch configuration: which variant or configuration wins, and by how much. Where the runs'
// samples are given, each bar carries the 95 % interval of its median and, above it, its verdict
// against the first run (core/verdict.h: "0.912x FASTER"); otherwise runtime bars show min to max.
// Runs of several devices get a colour each and the device's name: a workshop compares GPUs.
class ComparePlot : public QWidget {
  Q_OBJECT

 public:
  explicit ComparePlot(QWidget* parent = nullptr);
  // `judged`: the rows judged by judgeRuns, by run id.
  void setRows(std::vector<HistoryPoint> rows, ComparedRuns judged = {});
  void setMetric(ChartMetric metric);
  QCustomPlot* plot() const { return plot_; }
  int barCount() const;               // over every device's bars
  QStringList verdictLabels() const;  // above the bars, in bar order

 private:
  void redraw();

  QCustomPlot* plot_;
  QCPItemStraightLine* ceiling_;
  QCPItemText* ceilingLabel_;
  std::vector<HistoryPoint> rows_;
  ComparedRuns judged_;
  std::vector<QCPItemText*> verdicts_;
  ChartMetric metric_ = ChartMetric::Bandwidth;
};

}  // namespace kwb
