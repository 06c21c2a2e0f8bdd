#pragma once

#include <QSharedPointer>
#include <QWidget>

#include <vector>

#include "widgets/historyseries.h"
#include "widgets/plotstyle.h"

class QCustomPlot;
class QCPAxisTickerDateTime;
class QCPItemText;

namespace kwb {

// Runtime or bandwidth of runs over time, one line per kernel and problem, the min-max spread of
// each run's samples as error bars: does a kernel get faster across a tuning session, does a
// driver update change it?
class HistoryPlot : public QWidget {
  Q_OBJECT

 public:
  explicit HistoryPlot(QWidget* parent = nullptr);
  void setSeries(HistorySeriesSet series);
  void setMetric(ChartMetric metric);
  QCustomPlot* plot() const { return plot_; }
  // Series plotted and points in each, for tests.
  int seriesCount() const;
  int pointCount() const;

 private:
  void redraw();

  QCustomPlot* plot_;
  QSharedPointer<QCPAxisTickerDateTime> dateTicker_;
  QCPItemText* note_;  // what the plot leaves out, when it leaves something out
  HistorySeriesSet series_;
  ChartMetric metric_ = ChartMetric::Bandwidth;
};

}  // namespace kwb
