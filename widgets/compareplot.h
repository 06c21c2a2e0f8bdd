#pragma once

#include <QWidget>

#include <vector>

#include "widgets/historyrow.h"
#include "widgets/plotstyle.h"

class QCustomPlot;
class QCPItemStraightLine;
class QCPItemText;

namespace kwb {

// Runs side by side as bars (bandwidth, or median runtime with its min-max spread), each labelled
// with its kernel and launch configuration: which variant or configuration wins, and by how much.
// Runs of several devices get a colour each and the device's name: a workshop compares GPUs.
class ComparePlot : public QWidget {
  Q_OBJECT

 public:
  explicit ComparePlot(QWidget* parent = nullptr);
  void setRows(HistorySelection rows);
  void setMetric(ChartMetric metric);
  QCustomPlot* plot() const { return plot_; }
  int barCount() const;  // over every device's bars

 private:
  void redraw();

  QCustomPlot* plot_;
  QCPItemStraightLine* ceiling_;
  QCPItemText* ceilingLabel_;
  HistorySelection rows_;
  ChartMetric metric_ = ChartMetric::Bandwidth;
};

}  // namespace kwb
