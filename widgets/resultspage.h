#pragma once

#include <QWidget>

class QLabel;
class QTableView;

namespace kwb {

class ResultsModel;
class RunMetricsModel;

// The results of the current job, one row per run, and below them the metrics of the selected
// run (the only one, after a single run): counters, traced kernel times and the GPU's state.
class ResultsPage : public QWidget {
  Q_OBJECT

 public:
  ResultsPage(ResultsModel* results, QWidget* parent = nullptr);
  QTableView* table() const { return table_; }
  RunMetricsModel* metricsModel() const { return metrics_; }

 private:
  void showRun(int row);

  ResultsModel* results_;
  RunMetricsModel* metrics_;
  QTableView* table_;
  QTableView* metricsView_;
  QLabel* metricsTitle_;
};

}  // namespace kwb
