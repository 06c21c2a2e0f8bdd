#pragma once

#include <QWidget>

#include <vector>

#include "widgets/historyrow.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QTabWidget;
class QTableView;
class QTimer;
class QCustomPlot;

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

  HistoryModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  // The chart on show (history or compare), for export.
  QCustomPlot* currentChart() const;
  // The selected runs' ids, in table order; all shown runs when none is selected.
  QList<qint64> selectedIds(bool allWhenNone) const;
  void plotSelection();
  void compareSelection();
  // Filters the history by text and, once loaded, plots every matching run over time.
  void plotMatching(const QString& text);

 signals:
  void status(const QString& message);
  void plotted();

 private:
  void applyFilter();
  HistorySelection selection() const;
  void tagSelection();
  void annotateSelection();
  void deleteSelection();
  void exportSelection();

  HistoryModel* model_;
  QComboBox* family_;
  QComboBox* variant_;
  QComboBox* dtype_;
  QLineEdit* device_;
  QComboBox* since_;
  QLineEdit* text_;
  QTimer* filterDelay_;
  QLabel* count_;
  QTableView* table_;
  QComboBox* metric_;
  QTabWidget* charts_;
  HistoryPlot* historyPlot_;
  ComparePlot* comparePlot_;
};

}  // namespace kwb
