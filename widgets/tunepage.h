#pragma once

#include <QString>
#include <QWidget>

#include <functional>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/paramspec.h"
#include "core/protocol.h"
#include "core/tunesettings.h"

class QComboBox;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace kwb {

class WorkerClient;

// The Tune tab: a space (one row per launch parameter: tune it or not, its values),
// restrictions, strategy, objective and budget; a tuning through the worker with every evaluated
// point and the best so far plotted as they come; the finalists with their intervals and
// verdicts against the best; Stop keeps what was measured; Apply puts the best into the editors.
class TunePage : public QWidget {
  Q_OBJECT

 public:
  enum SpaceColumn { TuneColumn, NameColumn, ValuesColumn, SpaceColumnCount };
  enum FinalistColumn {
    RankColumn,
    ConfigurationColumn,
    MedianColumn,
    IntervalColumn,
    VerdictColumn,
    TiedColumn,
    FinalistColumnCount
  };

  explicit TunePage(WorkerClient* worker, QWidget* parent = nullptr);

  // The parameters the space offers, each with a first guess at its values (a list's choices,
  // an integer's range in powers of two); lists such as shapes are not offered.
  void setParams(const std::vector<ParamSpec>& specs);
  // The configuration to tune from: the editors' kernel and fixed values.
  void setKernelSource(std::function<protocol::Kernel()> kernel) { kernel_ = std::move(kernel); }
  // Ticks a parameter's row and sets its values (scripted use and tests).
  void tune(const QString& param, const QString& values);
  void setBudget(const QString& budget);
  // Whether the window has a device and a valid configuration: Tune is offered only then.
  void setReady(bool ready);
  TuneSettings settings() const;
  bool running() const { return !job_.isEmpty(); }

  // What the worker reports, shown as it comes.
  void showEvaluation(int number, const nlohmann::json& evaluation);
  void showReport(const nlohmann::json& report);

  // Writes the last report as JSON (.json) or the best as a C++ header (any other name); false
  // with the reason in the status where it cannot.
  bool exportResult(const QString& path);

  QCustomPlot* plot() const { return plot_; }
  QTableWidget* space() const { return space_; }
  QTableWidget* finalists() const { return finalists_; }
  QString status() const;

 public slots:
  void start();
  void stop();

 signals:
  // Apply: the best configuration's tuned values, for the editors.
  void applyRequested(const kwb::RawParams& values);
  void started();
  void finished();

 private:
  void end(const QString& status);
  void updateButtons();

  WorkerClient* worker_;
  std::function<protocol::Kernel()> kernel_;
  QTableWidget* space_;
  QLineEdit* restrictions_;
  QComboBox* strategy_;
  QComboBox* objective_;
  QLineEdit* budget_;
  QDoubleSpinBox* pointBudget_;
  QPushButton* startButton_;
  QPushButton* stopButton_;
  QPushButton* applyButton_;
  QPushButton* exportButton_;
  QLabel* status_;
  QCustomPlot* plot_;
  QTableWidget* finalists_;
  QString job_;
  RawParams best_;
  nlohmann::json report_;  // the last tuning's
  int evaluations_ = 0;
  bool ready_ = false;
};

}  // namespace kwb
