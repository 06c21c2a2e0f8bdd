#pragma once

#include <QString>
#include <QWidget>

class QLabel;
class QTableView;

namespace kwb {

class QualityPanel;
class ResultsModel;
class RunMetricsModel;

// The results of the current job, one row per run, and below them the metrics of the selected
// run (the only one, after a single run): counters, traced kernel times and the GPU's state, and
// beside them how far its time can be trusted and its verdict against its baseline (read from the
// history database at `databasePath`).
class ResultsPage : public QWidget {
  Q_OBJECT

 public:
  ResultsPage(ResultsModel* results, QString databasePath, QWidget* parent = nullptr);
  QTableView* table() const { return table_; }
  RunMetricsModel* metricsModel() const { return metrics_; }
  QualityPanel* qualityPanel() const { return quality_; }

 private:
  void showRun(int row);

  ResultsModel* results_;
  RunMetricsModel* metrics_;
  QTableView* table_;
  QTableView* metricsView_;
  QLabel* metricsTitle_;
  QualityPanel* quality_;
  QString databasePath_;
};

}  // namespace kwb
