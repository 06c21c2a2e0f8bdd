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

// Runtime (median, min-max as error bars; left axis) and bandwidth (right axis) against one
// swept parameter, with the copy ceiling and the peak drawn as lines. Numeric parameters get a
// value axis (logarithmic for sizes), others one tick per value. Drag pans, the wheel zooms, and
// the point under the mouse is read out.
class SweepPlot : public QWidget {
  Q_OBJECT

 public:
  explicit SweepPlot(QWidget* parent = nullptr);

  // Plots runs against param (its unit goes into the axis label); logX for size parameters.
  void setRuns(const std::vector<RunResult>& runs, const QString& param, bool logX,
               const QString& unit = {});
  QCustomPlot* plot() const { return plot_; }
  // The points plotted, for tests and export: x, median runtime (s), bandwidth (bytes/s).
  struct Point {
    double x;
    double seconds;
    double bandwidth;
  };
  const std::vector<Point>& points() const { return points_; }

 private:
  void showReadout(double pixelX);

  QCustomPlot* plot_;
  QCPGraph* runtime_;
  QCPGraph* bandwidth_;
  QCPErrorBars* spread_;
  QCPGraph* ceiling_;
  QCPGraph* peak_;
  QCPItemText* readout_;
  std::vector<Point> points_;
  std::vector<QString> labels_;
  QString param_;
};

}  // namespace kwb
