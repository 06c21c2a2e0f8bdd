#pragma once

#include <QString>
#include <QWidget>

#include <vector>

#include "core/runresult.h"

class QCustomPlot;
class QCPAxisRect;
class QLabel;

namespace kwb {

// A run's grid as waves of blocks over the SMs: one column per SM, one row per wave, a cell as
// full as the blocks the SM runs in that wave (the occupancy calculation's blocks per SM), the
// partial last wave in another colour, with the predicted cost of its idle slots. Under it, for
// a sweep, the measured time against the saw-tooth the waves predict.
class WavesPlot : public QWidget {
  Q_OBJECT

 public:
  explicit WavesPlot(QWidget* parent = nullptr);
  // The runs of a sweep (or one run, or a lesson's) on a device of `smCount` SMs; run `shown`
  // (the newest when out of range) is drawn as waves, a lesson's earlier runs said in words.
  // `swept`: the parameter the sweep varied, empty for none.
  void setRuns(const std::vector<RunResult>& runs, int smCount, const QString& swept = {},
               int shown = -1);
  QCustomPlot* plot() const { return plot_; }
  // For tests: the sentence under the title, the waves drawn and the predicted sweep points.
  QString sentence() const;
  int wavesDrawn() const { return wavesDrawn_; }
  int predictedPoints() const { return predicted_; }

 private:
  void drawWaves(const RunResult& run, int smCount);
  void drawSweep(const std::vector<RunResult>& runs, int smCount, const QString& swept);

  QLabel* sentence_;
  QCustomPlot* plot_;
  QCPAxisRect* wavesRect_;
  QCPAxisRect* sweepRect_;
  int wavesDrawn_ = 0;
  int predicted_ = 0;
};

}  // namespace kwb
