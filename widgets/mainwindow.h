#pragma once

#include <QMainWindow>

#include <memory>
#include <optional>

#include "core/protocol.h"
#include "core/variantinfo.h"
#include "widgets/lessonpage.h"
#include "widgets/report.h"
#include "widgets/settings.h"
#include "widgets/sourceview.h"

class QLabel;
class QLineEdit;
class QTimer;
class QCustomPlot;

namespace Ui {
class MainWindow;
}

namespace kwb {

class HeatmapPlot;
class RooflinePlot;
class WavesPlot;
class ExplainView;
class HistoryPage;
class JobSession;
class KernelEditor;
class MyKernels;
class KernelTreeModel;
class TunePage;
class ParamEditor;
class ResultsModel;
class ResultsPage;
class SassView;
class SweepPlot;
class WorkerClient;

// The workbench window: pick a kernel, set its problem and launch configuration, run it or sweep
// it in a worker process, and watch the results and the sweep plot fill in as they arrive.
class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  // workerProgram is kwb; its worker runs with the settings' history, host and device.
  MainWindow(QString workerProgram, const Settings& settings, QWidget* parent = nullptr);
  ~MainWindow() override;

  // Scripted use (reports, the docs' screenshots): select a variant once the catalog is in, and
  // start a sweep over the given axes ("n=2^20:2^28:*4").
  void selectWhenReady(const QString& family, const QString& variant, QStringList sweepAxes);
  // The same for a kernel file, opened in the editor.
  void openKernelWhenReady(const QString& path, QStringList sweepAxes);
  // Opens the history filtered by text, with every matching run plotted over time or compared
  // side by side (devices apart, for a workshop's merged histories).
  void showHistory(const QString& text, bool compare = false);
  HistoryPage* historyPage() const { return history_; }
  TunePage* tunePage() const { return tune_; }
  SassView* sassView() const { return sass_; }
  // The hardware metrics the next run or sweep reads, as typed in the Measurement box.
  void setMetrics(const QString& text);
  // Brings a view to the front: "sweep", "heatmap", "results", "history", "source", "sass",
  // "lesson" or "editor"; false for others.
  bool showView(const QString& name);
  // The current results, the charts that have data, and the device, as a report.
  Report report() const;
  // Runs a lesson's baseline and step with the learner's prediction; false for an unknown id or
  // while a job runs.
  bool startLesson(const QString& id, double prediction);
  // Lists a kernel file under "My kernels", selects it and shows it in the editor; false with the
  // reason in the status bar where it cannot be read.
  bool openKernel(const QString& path);
  KernelEditor* kernelEditor() const { return editor_; }

 signals:
  void catalogShown();
  void jobEnded();

 private:
  void buildUi();
  void buildMenus();
  // Help > About's text: the worker's `kwb --version` and the Qt the window runs on.
  QString aboutText() const;
  QCustomPlot* currentChart() const;
  void exportChart();
  void exportResults();
  void exportReport();
  // A file to export the results to, asked for; empty when there are none yet or no file chosen.
  QString exportPath(const QString& title, const QString& suggested, const QString& filter);
  // How the next run, sweep or lesson measures: the budget and the metrics picked.
  MeasureSettings measureSettings(const std::string& metrics) const;
  void connectWorker();
  void connectSession();
  // Jobs go to the worker of the settings' host and device from now on; a running job first ends
  // where it runs.
  void moveWorker();
  // Where the jobs run, for the status bar: "HOST, GPU 0: " ("GPUs all: " for several); empty
  // for this machine's one device.
  QString gpuPlace() const;
  // With Settings saying Slurm: the status bar says where the jobs go, and they may start. False
  // otherwise.
  bool showSlurm();
  void onVariantSelected();
  // The kernel file in the editor: its spec read again as it is typed, its parameters edited,
  // its compile errors marked.
  void showKernelFile(const QString& path);
  void readEditedSpec();
  void markCompileErrors(const QString& message);
  void refreshKernelFiles();
  void newKernel();
  bool saveKernel();
  // One checked call of the kernel file under memcheck (`kwb run --sanitize`), in a process of
  // its own; the errors marked on their lines.
  void checkMemory();
  // What a run or a resolve is about: the selected variant, or the file with the editor's text.
  protocol::Kernel currentKernel() const;
  // An exercise's file, "<lesson id>.cu" in My kernels' folder: written from the starting file
  // where missing, and shown in the editor.
  QString exercisePath(const Lesson& lesson) const;
  void openExercise(const Lesson& lesson);
  // The learner's kernel for an exercise's runs, saved first where the editor has it; nullopt,
  // said in the message line, where it cannot be run.
  std::optional<protocol::Kernel> exerciseKernel(const Lesson& lesson);
  void start(bool sweep);
  void endJob(const QString& message);
  // Under the editor of the parameter at fault, if one is.
  // The results so far on the roofline, under their device's measured roofs.
  void updateRoofline(const std::string& deviceUuid, const QString& swept);
  // The waves of the result selected, else the newest (and the sweep's saw-tooth); the explain
  // view's pair: the two results selected, else the first and the newest.
  void updateWaves(const QString& swept);
  void updateExplain();
  void showParamError(const QString& param, const QString& message);
  std::optional<std::vector<std::string>> sweepAxes();
  void updateButtons();
  void requestDerived();
  RawParams currentParams() const;
  QString unitOf(const QString& param) const;

  std::unique_ptr<Ui::MainWindow> ui_;
  WorkerClient* worker_;
  JobSession* session_;
  KernelTreeModel* kernels_;
  ResultsModel* results_;
  QLineEdit* axis_[2];
  QTimer* derivedDelay_;
  QString resolveId_;
  ResultsPage* resultsPage_;
  SweepPlot* plot_;
  HeatmapPlot* heatmap_;
  RooflinePlot* roofline_;
  WavesPlot* waves_;
  ExplainView* explain_;
  std::string rooflineDevice_;  // whose roofs roofline_ shows
  HistoryPage* history_;
  SourceView* source_;
  SassView* sass_;
  TunePage* tune_ = nullptr;
  LessonPage* lesson_;
  KernelEditor* editor_;
  MyKernels* myKernels_;
  QTimer* specDelay_;
  QString selectedFile_;  // the kernel file selected, empty for a built-in variant
  Settings settings_;
  QString databaseInUse_;  // the history this window shows, until the next start
  bool workerMovePending_ = false;
  QLabel* device_;

  std::optional<VariantInfo> selected_;
  bool hasDevice_ = false;
  std::optional<DeviceInfo> deviceInfo_;
  struct Pending {
    QString family, variant;
    QStringList axes;
    QString path;  // a kernel file instead
  };
  std::optional<Pending> pending_;
};

}  // namespace kwb
