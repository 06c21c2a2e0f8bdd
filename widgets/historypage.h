#pragma once

#include <QWidget>

#include <functional>
#include <memory>
#include <vector>

#include "widgets/historyrow.h"

class QTableView;
class QTimer;
class QCustomPlot;

namespace Ui {
class HistoryPage;
}

namespace kwb {

class ComparePlot;
class HistoryModel;
class HistoryPlot;

// The run history: filter it (kernel, dtype, device, time, free text), sort it by any column,
// select runs to plot over time or compare side by side, tag, annotate, export or delete them.
class HistoryPage : public QWidget {
  Q_OBJECT

 public:
  explicit HistoryPage(const QString& databasePath, QWidget* parent = nullptr);
  ~HistoryPage() override;

  HistoryModel* model() const { return model_; }
  QTableView* table() const;
  // The chart on show (history or compare), for export.
  QCustomPlot* currentChart() const;
  // The selected runs' ids, in table order; all shown runs when none is selected.
  QList<qint64> selectedIds(bool allWhenNone) const;
  // Read off the GUI thread; plotted() says when the chart shows them.
  void plotSelection();
  void compareSelection();
  // Filters the history by text and, once loaded, plots every matching run over time, or
  // compares them side by side.
  void plotMatching(const QString& text, bool compare = false);
  // Answers the question Baseline asks for a kernel file's run (Yes: this source version only),
  // in place of the dialog; for tests.
  void setSourceVersionAnswer(std::function<int()> answer) {
    askSourceVersion_ = std::move(answer);
  }

 signals:
  void status(const QString& message);
  void plotted();

 private:
  void applyFilter();
  // The selected runs' ids, in table order.
  std::vector<std::int64_t> selection() const;
  void tagSelection();
  void annotateSelection();
  void showCode();
  void markBaseline();
  void showQuality();
  void explainSelection();
  void deleteSelection();
  void exportSelection();

  std::unique_ptr<Ui::HistoryPage> ui_;
  HistoryModel* model_;
  QString databasePath_;
  QTimer* filterDelay_;
  HistoryPlot* historyPlot_;
  ComparePlot* comparePlot_;
  std::function<int()> askSourceVersion_;
};

}  // namespace kwb
