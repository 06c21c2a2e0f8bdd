#pragma once

#include <QWidget>

#include <map>
#include <vector>

#include "core/runresult.h"
#include "core/verdict.h"

#include "widgets/historyrow.h"
#include "widgets/plotstyle.h"

class QCustomPlot;
class QCPItemStraightLine;
class QCPItemText;

namespace kwb {

// Runs side by side as bars (bandwidth, or median runtime), each labelled with its kernel and
// launch configuration: which variant or configuration wins, and by how much. Where the runs'
// samples are given, each bar carries the 95 % interval of its median and, above it, its verdict
// against the first run (core/verdict.h: "0.912x FASTER"); otherwise runtime bars show min to max.
// Runs of several devices get a colour each and the device's name: a workshop compares GPUs.
class ComparePlot : public QWidget {
  Q_OBJECT

 public:
  explicit ComparePlot(QWidget* parent = nullptr);
  // `runs`: the full runs (samples and clocks) of some or all rows, by run id.
  void setRows(HistorySelection rows, const std::map<std::int64_t, RunResult>& runs = {});
  void setMetric(ChartMetric metric);
  QCustomPlot* plot() const { return plot_; }
  int barCount() const;               // over every device's bars
  QStringList verdictLabels() const;  // above the bars, in bar order

 private:
  void redraw();

  QCustomPlot* plot_;
  QCPItemStraightLine* ceiling_;
  QCPItemText* ceilingLabel_;
  HistorySelection rows_;
  struct Judged {
    Interval time;    // the 95 % interval of the run's median
    QString verdict;  // against the first run with samples, or "reference" for it
  };
  std::map<std::int64_t, Judged> judged_;  // the rows whose samples were given, by run id
  std::vector<QCPItemText*> verdicts_;
  ChartMetric metric_ = ChartMetric::Bandwidth;
};

}  // namespace kwb
