#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

#include <vector>

#include "core/runresult.h"

class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QCPItemRect;
class QCPItemText;

namespace kwb {

// A two-parameter sweep as a heatmap: one cell per point, coloured by bandwidth, each cell
// labelled with its value, so the best region of a launch space shows at a glance. Cells that
// cannot be told from the best (their median's 95 % interval overlaps the best one's) are
// outlined, the best with a solid line; where every cell is, the colour scale says its whole
// range is inside the noise.
class HeatmapPlot : public QWidget {
  Q_OBJECT

 public:
  explicit HeatmapPlot(QWidget* parent = nullptr);

  // Cells at (x value, y value) of params xParam and yParam; values keep their sweep order.
  void setRuns(const std::vector<RunResult>& runs, const QString& xParam, const QString& yParam,
               const QString& xUnit = {}, const QString& yUnit = {});
  QCustomPlot* plot() const { return plot_; }
  int cellCount() const { return cells_; }
  int tiedCellCount() const { return static_cast<int>(marks_.size()); }  // the best included
  bool rangeIsNoise() const { return rangeIsNoise_; }

 private:
  QCustomPlot* plot_;
  QCPColorMap* map_;
  QCPColorScale* scale_;
  std::vector<QCPItemText*> labels_;  // one per cell, with its value
  std::vector<QCPItemRect*> marks_;   // outlines of the cells tied with the best
  bool rangeIsNoise_ = false;
  QCPItemText* readout_;
  QStringList xs_, ys_;  // the swept values along each axis, in sweep order
  int cells_ = 0;
};

}  // namespace kwb
