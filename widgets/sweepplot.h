#pragma once

#include <QString>
#include <QWidget>

#include <vector>

#include "core/runresult.h"

class QCustomPlot;
class QCPGraph;
class QCPErrorBars;
class QCPItemStraightLine;
class QCPItemText;

namespace kwb {

// Runtime (median, the 95 % interval of the median as error bars; left axis) and bandwidth (right
// axis) against one swept parameter, with the copy ceiling and the peak drawn as lines; points
// whose interval overlaps the best one's are ringed: the sweep cannot tell them from the best. A
// second swept parameter gives one series per value, each with its colour and legend entries; the
// legend sits below the axes, off the data. Numeric parameters get a value axis (logarithmic for
// sizes), others one tick per value. Drag pans, the wheel zooms, and the point under the mouse is
// read out.
class SweepPlot : public QWidget {
  Q_OBJECT

 public:
  explicit SweepPlot(QWidget* parent = nullptr);

  // Plots runs against param (its unit goes into the axis label); logX for size parameters;
  // one series per value of seriesParam where it is given.
  void setRuns(const std::vector<RunResult>& runs, const QString& param, bool logX,
               const QString& unit = {}, const QString& seriesParam = {});
  QCustomPlot* plot() const { return plot_; }
  // The points plotted, for tests and export: x, median runtime (s), bandwidth (bytes/s), and
  // the series they belong to (the second parameter's value; empty without one).
  struct Point {
    double x;
    double seconds;
    double bandwidth;
    QString series;
  };
  const std::vector<Point>& points() const { return points_; }
  // The runtime graphs, one per series.
  int seriesCount() const { return static_cast<int>(series_.size()); }
  int tiedPointCount() const;  // the best included

 private:
  void showReadout(double pixelX, double pixelY);
  void clearSeries();

  QCustomPlot* plot_;
  struct Series {
    QCPGraph* runtime;
    QCPErrorBars* spread;
    QCPGraph* bandwidth;
  };
  std::vector<Series> series_;
  QCPGraph* ceiling_;
  QCPGraph* peak_;
  QCPGraph* tied_ = nullptr;  // rings on the bandwidth axis
  QCPItemText* readout_;
  std::vector<Point> points_;
  std::vector<QString> labels_;
  QString param_;
  QString seriesParam_;
};

}  // namespace kwb
