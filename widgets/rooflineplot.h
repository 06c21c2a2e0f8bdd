#pragma once

#include <QString>
#include <QWidget>

#include <vector>

#include "core/ceilings.h"
#include "core/runresult.h"

class QCustomPlot;
class QCPItemText;

namespace kwb {

// The runs on their device's roofline: arithmetic intensity (declared flops over declared bytes,
// and where the flops and memory counters were read, flops executed over DRAM bytes) against
// achieved FLOP/s, under the roofs the card measured (kwb devices --ceilings): DRAM and L2
// bandwidth, FP32, FP16 and FP64 throughput. Each run of a sweep is a point coloured by the swept
// parameter's value; a point above its roof is drawn as a red cross and named: the figure is
// wrong, not a triumph. A lesson's runs are a path instead, baseline to step.
class RooflinePlot : public QWidget {
  Q_OBJECT

 public:
  explicit RooflinePlot(QWidget* parent = nullptr);
  void setCeilings(std::vector<DeviceCeiling> ceilings);
  const std::vector<DeviceCeiling>& ceilings() const { return ceilings_; }
  // `swept`: the parameter the points are coloured by; empty for one colour. `path`: the runs are
  // a lesson's steps, each a point of its own joined in order, from the baseline to the step.
  void setRuns(const std::vector<RunResult>& runs, const QString& swept = {}, bool path = false);
  QCustomPlot* plot() const { return plot_; }
  // For tests: points drawn, and those above their roof.
  int pointCount() const { return points_; }
  int aboveRoofCount() const { return above_; }
  int countedCount() const { return measured_; }
  QString note() const;

 private:
  void redraw();

  QCustomPlot* plot_;
  QCPItemText* note_;
  std::vector<DeviceCeiling> ceilings_;
  std::vector<RunResult> runs_;
  QString swept_;
  bool path_ = false;
  int points_ = 0;
  int above_ = 0;
  int measured_ = 0;
};

}  // namespace kwb
