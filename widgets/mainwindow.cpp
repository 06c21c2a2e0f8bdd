#include "widgets/mainwindow.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QTreeView>

#include <qcustomplot.h>

#include "core/error.h"
#include "core/format.h"
#include "core/metriccatalog.h"
#include "core/sweep.h"
#include "core/validation.h"
#include "db/exporter.h"
#include "db/runstore.h"
#include "ui_mainwindow.h"
#include "widgets/chartexport.h"
#include "widgets/chartexportdialog.h"
#include "widgets/explainview.h"
#include "widgets/heatmapplot.h"
#include "widgets/historymodel.h"
#include "widgets/historypage.h"
#include "widgets/jobsession.h"
#include "widgets/kerneleditor.h"
#include "widgets/kerneltreemodel.h"
#include "widgets/mykernels.h"
#include "widgets/parameditor.h"
#include "widgets/resultsmodel.h"
#include "widgets/resultspage.h"
#include "widgets/rooflineplot.h"
#include "widgets/sassview.h"
#include "widgets/settingsdialog.h"
#include "widgets/sweepplot.h"
#include "widgets/tunepage.h"
#include "widgets/wavesplot.h"
#include "widgets/workerclient.h"

namespace kwb {
namespace {

QString etaText(double seconds) {
  if (seconds < 1) return {};
  const int s = static_cast<int>(seconds + 0.5);
  return QObject::tr("about %1 left")
      .arg(s >= 60 ? QString("%1 min %2 s").arg(s / 60).arg(s % 60) : QString("%1 s").arg(s));
}

}  // namespace

MainWindow::MainWindow(QString workerProgram, const Settings& settings, QWidget* parent)
    : QMainWindow(parent),
      ui_(std::make_unique<Ui::MainWindow>()),
      worker_(new WorkerClient(std::move(workerProgram), settings.workerArguments(), this)),
      session_(new JobSession(worker_, this)),
      kernels_(new KernelTreeModel(this)),
      results_(new ResultsModel(this)),
      settings_(settings),
      databaseInUse_(settings.databasePath) {
  buildUi();
  buildMenus();
  connectWorker();
  connectSession();
  worker_->requestCatalog();
  worker_->requestDevices();
}

void MainWindow::buildUi() {
  ui_->setupUi(this);
  ui_->kernelTree->setModel(kernels_);
  ui_->kernelTree->header()->setSectionResizeMode(KernelTreeModel::NameColumn,
                                                  QHeaderView::ResizeToContents);
  ui_->axisErrorLabel->hide();
  ui_->derivedLabel->setTextFormat(Qt::RichText);  // its values in bold; messages escaped
  ui_->budgetSpin->setValue(settings_.budgetSeconds);
  ui_->metricsCombo->setCurrentText(settings_.metrics);
  // What the user picks or types is remembered; a scripted --metrics is not, nor this
  // session's --db or --host.
  const auto rememberMetrics = [this] {
    settings_.metrics = ui_->metricsCombo->currentText().trimmed();
    Settings stored = Settings::load();
    stored.metrics = settings_.metrics;
    stored.save();
  };
  connect(ui_->metricsCombo, &QComboBox::activated, this, rememberMetrics);
  connect(ui_->metricsCombo->lineEdit(), &QLineEdit::editingFinished, this, rememberMetrics);
  axis_[0] = ui_->axis1Edit;
  axis_[1] = ui_->axis2Edit;
  for (auto* axis : axis_)  // updateButtons() checks the axes and explains a bad one
    connect(axis, &QLineEdit::textChanged, this, &MainWindow::updateButtons);
  // Typing fast asks once: the worker is asked when the values have rested this long.
  derivedDelay_ = new QTimer(this);
  derivedDelay_->setSingleShot(true);
  derivedDelay_->setInterval(150);
  connect(derivedDelay_, &QTimer::timeout, this, &MainWindow::requestDerived);

  // The views, placed here as the plots are: they take models and settings the .ui cannot.
  resultsPage_ = new ResultsPage(results_, settings_.databasePath, ui_->viewTabs);
  plot_ = new SweepPlot(ui_->viewTabs);
  heatmap_ = new HeatmapPlot(ui_->viewTabs);
  roofline_ = new RooflinePlot(ui_->viewTabs);
  waves_ = new WavesPlot(ui_->viewTabs);
  explain_ = new ExplainView(ui_->viewTabs);
  explain_->setWorker(worker_);
  connect(resultsPage_->table()->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          [this] {
            updateExplain();
            updateWaves(session_->plan().swept.value(0));
          });
  history_ = new HistoryPage(settings_.databasePath, ui_->viewTabs);
  source_ = new SourceView(ui_->viewTabs);
  sass_ = new SassView(worker_, ui_->viewTabs);
  lesson_ = new LessonPage(ui_->viewTabs);
  editor_ = new KernelEditor(ui_->viewTabs);
  ui_->viewTabs->addTab(editor_, tr("Kernel file"));
  ui_->viewTabs->addTab(plot_, tr("Sweep plot"));
  ui_->viewTabs->addTab(heatmap_, tr("Heatmap"));
  ui_->viewTabs->addTab(roofline_, tr("Roofline"));
  ui_->viewTabs->addTab(waves_, tr("Waves"));
  ui_->viewTabs->addTab(explain_, tr("Explain"));
  ui_->viewTabs->addTab(resultsPage_, tr("Results"));
  ui_->viewTabs->addTab(history_, tr("History"));
  ui_->viewTabs->addTab(source_, tr("Source"));
  ui_->viewTabs->addTab(sass_, tr("SASS"));
  ui_->viewTabs->addTab(lesson_, tr("Lesson"));
  tune_ = new TunePage(worker_, ui_->viewTabs);
  ui_->viewTabs->addTab(tune_, tr("Tune"));
  tune_->setKernelSource([this] { return currentKernel(); });
  connect(tune_, &TunePage::applyRequested, this, [this](const RawParams& best) {
    for (const auto& [name, value] : best)
      ui_->launchEditor->setValue(name, QString::fromStdString(value));
    statusBar()->showMessage(tr("The best configuration is in the launch editor."), 8000);
  });
  connect(lesson_, &LessonPage::runRequested, this,
          [this](const Lesson& l) { startLesson(QString::fromStdString(l.id), -1); });
  connect(lesson_, &LessonPage::exerciseRequested, this, &MainWindow::openExercise);
  connect(lesson_, &LessonPage::sassRequested, this, [this](const Lesson& l) {
    ui_->viewTabs->setCurrentWidget(sass_);
    sass_->showLesson(l);
  });
  myKernels_ = new MyKernels(settings_.kernelsFolder, this);
  connect(myKernels_, &MyKernels::changed, this, &MainWindow::refreshKernelFiles);
  specDelay_ = new QTimer(this);
  specDelay_->setSingleShot(true);
  specDelay_->setInterval(300);
  connect(specDelay_, &QTimer::timeout, this, &MainWindow::readEditedSpec);
  connect(editor_, &KernelEditor::textEdited, specDelay_, qOverload<>(&QTimer::start));
  connect(editor_, &KernelEditor::reloaded, this, [this] {
    statusBar()->showMessage(tr("%1 was changed on disk and loaded again.").arg(editor_->path()),
                             8000);
  });
  connect(history_, &HistoryPage::status, this,
          [this](const QString& message) { statusBar()->showMessage(message, 8000); });
  ui_->splitter->setStretchFactor(2, 1);  // the views take what the window gains
  ui_->splitter->setSizes({300, 330, 900});
  device_ = new QLabel(tr("Looking for a CUDA device..."), this);
  statusBar()->addPermanentWidget(device_);

  connect(ui_->kernelTree->selectionModel(), &QItemSelectionModel::currentChanged, this,
          &MainWindow::onVariantSelected);
  for (auto* editor : {ui_->problemEditor, ui_->launchEditor})
    connect(editor, &ParamEditor::valuesChanged, this, [this] {
      updateButtons();
      derivedDelay_->start();
    });
  connect(ui_->runButton, &QPushButton::clicked, this, [this] { start(false); });
  connect(ui_->sweepButton, &QPushButton::clicked, this, [this] { start(true); });
  connect(ui_->stopButton, &QPushButton::clicked, this, [this] {
    session_->stop();
    ui_->messageLabel->setText(tr("Stopping..."));
  });
  updateButtons();
}

bool MainWindow::showSlurm() {
  if (!settings_.slurm) return false;
  // The login node may have no GPU: the jobs run on the cluster's.
  hasDevice_ = true;
  device_->setText(tr("Slurm: %1, %2, %3 tasks at most")
                       .arg(settings_.partition.isEmpty()
                                ? tr("default partition")
                                : tr("partition %1").arg(settings_.partition))
                       .arg(settings_.gres.isEmpty() ? tr("no gres") : settings_.gres)
                       .arg(settings_.tasks));
  updateButtons();
  return true;
}

QString MainWindow::gpuPlace() const {
  const QString gpus = settings_.devices.isEmpty() ? tr("GPU %1").arg(settings_.device)
                                                   : tr("GPUs %1").arg(settings_.devices);
  if (settings_.host.isEmpty()) return settings_.devices.isEmpty() ? QString() : gpus + ": ";
  return settings_.host + ", " + gpus + ": ";
}

void MainWindow::moveWorker() {
  const QString place = settings_.host.isEmpty() ? tr("this machine") : settings_.host;
  if (worker_->busy()) {
    workerMovePending_ = true;
    statusBar()->showMessage(
        tr("The running job ends where it runs; the next one runs on %1.").arg(place), 8000);
    return;
  }
  workerMovePending_ = false;
  Settings running = settings_;
  running.databasePath = databaseInUse_;
  worker_->setArguments(running.workerArguments());
  hasDevice_ = false;
  device_->setText(tr("Looking for a CUDA device on %1...").arg(place));
  updateButtons();
  worker_->requestCatalog();
  worker_->requestDevices();
}

void MainWindow::connectWorker() {
  // A host or device picked while a job ran: taken up once no job is left.
  const auto moveIfPending = [this] {
    QTimer::singleShot(0, this, [this] {
      if (workerMovePending_ && !worker_->busy()) moveWorker();
    });
  };
  connect(worker_, &WorkerClient::jobDone, this, moveIfPending);
  connect(worker_, &WorkerClient::jobError, this, moveIfPending);
  connect(worker_, &WorkerClient::workerLost, this, moveIfPending);
  connect(worker_, &WorkerClient::catalogReceived, this, [this](const auto& families) {
    kernels_->setCatalog(families);
    sass_->setCatalog(families);
    refreshKernelFiles();
    ui_->kernelTree->expandAll();
    QModelIndex first = kernels_->index(0, 0, kernels_->index(0, 0));
    if (pending_) first = kernels_->indexOf(pending_->family, pending_->variant);
    if (!selectedFile_.isEmpty()) first = kernels_->indexOfFile(selectedFile_);
    ui_->kernelTree->setCurrentIndex(first);
    if (pending_ && !pending_->path.isEmpty()) openKernel(pending_->path);
    emit catalogShown();
    if (pending_ && !pending_->axes.isEmpty()) {
      for (int i = 0; i < pending_->axes.size() && i < 2; ++i) axis_[i]->setText(pending_->axes[i]);
      start(true);
    }
    pending_.reset();
  });
  connect(worker_, &WorkerClient::devicesReceived, this, [this](const auto& devices) {
    if (showSlurm()) return;
    const auto ordinal = static_cast<std::size_t>(settings_.device);
    hasDevice_ = ordinal < devices.size();
    if (hasDevice_) {
      const DeviceInfo& d = devices[ordinal];
      deviceInfo_ = d;
      device_->setText(QString("%1%2 (sm_%3, %4 SMs, peak %5)")
                           .arg(gpuPlace())
                           .arg(QString::fromStdString(d.name))
                           .arg(d.ccMajor * 10 + d.ccMinor)
                           .arg(d.smCount)
                           .arg(QString::fromStdString(formatBandwidth(d.peakBandwidth))));
    }
    updateButtons();
  });
  connect(worker_, &WorkerClient::noDevice, this, [this](const QString& message) {
    if (showSlurm()) return;
    hasDevice_ = false;
    QString sentence = settings_.host.isEmpty() ? message : settings_.host + ": " + message;
    if (!sentence.isEmpty()) sentence[0] = sentence[0].toUpper();
    device_->setText(tr("%1. History, plots and export still work.").arg(sentence));
    updateButtons();
  });
  connect(worker_, &WorkerClient::resolved, this,
          [this](const QString& id, const ParamSet&, const ParamSet& derived, qint64 bytes,
                 const QString& device, const QString& noDevice) {
            if (id != resolveId_) return;
            if (!noDevice.isEmpty()) {
              ui_->derivedLabel->setText(
                  tr("Grid and waves need a device: %1").arg(noDevice.toHtmlEscaped()));
              return;
            }
            QStringList lines;
            for (const auto& [name, value] : derived.values())
              lines << QString("%1: <b>%2</b>")
                           .arg(QString::fromStdString(name), QString::fromStdString(value));
            lines << tr("bytes to move: <b>%1</b>")
                         .arg(QString::fromStdString(formatBytes(static_cast<double>(bytes))));
            ui_->derivedLabel->setText(tr("On %1:<br>").arg(device) + lines.join(" &nbsp; "));
          });
  connect(worker_, &WorkerClient::jobError, this,
          [this](const QString& id, const QString&, const QString& message, const QString& param) {
            if (id != resolveId_) return;
            ui_->derivedLabel->setText(tr("Not valid: %1").arg(message.toHtmlEscaped()));
            showParamError(param, message);
            markCompileErrors(message);
          });
  connect(worker_, &WorkerClient::incompatible, this, [this](const QString& sentence) {
    device_->setText(sentence);
    ui_->messageLabel->setText(sentence);
  });
}

void MainWindow::connectSession() {
  connect(session_, &JobSession::progress, this,
          [this](int done, int total, double eta, const QString& text) {
            if (total > 0) {
              ui_->progressBar->setRange(0, total);
              ui_->progressBar->setValue(done);
            }
            ui_->etaLabel->setText(etaText(eta));
            ui_->messageLabel->setText(text);
          });
  connect(session_, &JobSession::point, this, [this](const RunResult& run, qint64 runId) {
    results_->append(run, runId);
    if (!run.notice.empty()) statusBar()->showMessage(QString::fromStdString(run.notice), 15000);
    const QStringList& swept = session_->plan().swept;
    updateRoofline(run.deviceUuid, swept.value(0));
    updateWaves(swept.value(0));
    updateExplain();
    if (swept.isEmpty()) return;
    plot_->setRuns(results_->runs(), swept[0],
                   selected_ && swept[0].toStdString() == selected_->sizeParam, unitOf(swept[0]),
                   swept.size() > 1 ? swept[1] : QString());
    if (swept.size() > 1)
      heatmap_->setRuns(results_->runs(), swept[0], swept[1], unitOf(swept[0]), unitOf(swept[1]));
  });
  connect(session_, &JobSession::finished, this, [this](int completed, bool cancelled) {
    endJob(cancelled ? tr("Stopped after %n point(s).", nullptr, completed)
                     : tr("Done: %n point(s).", nullptr, completed));
  });
  connect(session_, &JobSession::failed, this,
          [this](const QString& message, const QString& param) {
            showParamError(param, message);
            markCompileErrors(message);
            endJob(message);
          });
}

void MainWindow::updateRoofline(const std::string& deviceUuid, const QString& swept) {
  // The roofs of the device the runs ran on, read once per device: one small query.
  if (!deviceUuid.empty() && deviceUuid != rooflineDevice_) try {
      roofline_->setCeilings(
          RunStore(settings_.databasePath.toStdString()).deviceCeilings(deviceUuid));
      rooflineDevice_ = deviceUuid;
    } catch (const Error& e) {
      statusBar()->showMessage(QString::fromStdString(e.what()), 15000);
    }
  roofline_->setRuns(results_->runs(), swept);
}

void MainWindow::updateWaves(const QString& swept) {
  // The one result selected, else the newest.
  const auto rows = resultsPage_->table()->selectionModel()->selectedRows();
  waves_->setRuns(results_->runs(), deviceInfo_ ? deviceInfo_->smCount : 0, swept,
                  rows.size() == 1 ? rows.front().row() : -1);
}

void MainWindow::updateExplain() {
  const auto& runs = results_->runs();
  std::vector<int> rows;
  for (const QModelIndex& index : resultsPage_->table()->selectionModel()->selectedRows())
    rows.push_back(index.row());
  std::sort(rows.begin(), rows.end());
  if (rows.size() != 2) rows = {0, static_cast<int>(runs.size()) - 1};
  if (runs.size() < 2 || rows[0] == rows[1])
    return explain_->showHint(
        tr("Two runs are needed: run a sweep, or select two results, to see why they differ."));
  const auto a = static_cast<std::size_t>(rows[0]), b = static_cast<std::size_t>(rows[1]);
  explain_->setRuns(results_->runId(rows[0]), runs[a], results_->runId(rows[1]), runs[b]);
}

void MainWindow::showParamError(const QString& param, const QString& message) {
  if (!param.isEmpty() && !ui_->problemEditor->showError(param, message))
    ui_->launchEditor->showError(param, message);
}

void MainWindow::selectWhenReady(const QString& family, const QString& variant,
                                 QStringList sweepAxes) {
  pending_ = Pending{family, variant, std::move(sweepAxes), {}};
}

void MainWindow::openKernelWhenReady(const QString& path, QStringList sweepAxes) {
  pending_ = Pending{{}, {}, std::move(sweepAxes), path};
}

bool MainWindow::showView(const QString& name) {
  const std::pair<const char*, QWidget*> views[] = {
      {"sweep", plot_},      {"heatmap", heatmap_}, {"roofline", roofline_},
      {"waves", waves_},     {"explain", explain_}, {"results", resultsPage_},
      {"history", history_}, {"source", source_},   {"sass", sass_},
      {"lesson", lesson_},   {"editor", editor_},   {"tune", tune_}};
  for (const auto& [view, widget] : views)
    if (name == view) {
      ui_->viewTabs->setCurrentWidget(widget);
      return true;
    }
  return false;
}

void MainWindow::setMetrics(const QString& text) {
  ui_->metricsCombo->setCurrentText(text);
}

void MainWindow::showHistory(const QString& text, bool compare) {
  ui_->viewTabs->setCurrentWidget(history_);
  history_->plotMatching(text, compare);
}

void MainWindow::onVariantSelected() {
  const QString path = ui_->kernelTree->currentIndex().data(KernelTreeModel::PathRole).toString();
  if (!path.isEmpty()) return showKernelFile(path);
  selectedFile_.clear();
  const VariantInfo* variant = kernels_->variant(ui_->kernelTree->currentIndex());
  if (!variant) {
    selected_.reset();
    source_->setVariant({}, {});
    ui_->teachesLabel->setText(
        ui_->kernelTree->currentIndex().data(KernelTreeModel::TeachesRole).toString());
    ui_->problemEditor->setSpecs({});
    ui_->launchEditor->setSpecs({});
  } else {
    selected_ = *variant;
    source_->setVariant(variant->family, variant->name);
    ui_->teachesLabel->setText(QString::fromStdString(variant->teaches));
    ui_->problemEditor->setSpecs(withRole(variant->params, ParamRole::Problem));
    ui_->launchEditor->setSpecs(withRole(variant->params, ParamRole::Launch));
    tune_->setParams(withRole(variant->params, ParamRole::Launch));
  }
  updateButtons();
  ui_->derivedLabel->clear();
  requestDerived();
}

QString MainWindow::unitOf(const QString& param) const {
  const ParamSpec* spec = selected_ ? findSpec(selected_->params, param.toStdString()) : nullptr;
  return spec ? QString::fromStdString(spec->unit) : QString();
}

RawParams MainWindow::currentParams() const {
  RawParams params;
  for (const auto& [name, value] : ui_->problemEditor->values()) params[name] = value;
  for (const auto& [name, value] : ui_->launchEditor->values()) params[name] = value;
  return params;
}

void MainWindow::requestDerived() {
  resolveId_.clear();
  if (!selected_) sass_->setSelection({}, {}, {});
  if (!selected_ || !ui_->problemEditor->isValid() || !ui_->launchEditor->isValid()) return;
  protocol::Kernel kernel = currentKernel();
  sass_->setSelection(selected_->family, selected_->name, kernel.params, kernel.path,
                      kernel.source);
  resolveId_ = worker_->requestResolve(std::move(kernel));
}

std::optional<std::vector<std::string>> MainWindow::sweepAxes() {
  std::vector<std::string> axes;
  QString error;
  for (auto* edit : axis_) {
    const QString text = edit->text().trimmed();
    if (text.isEmpty()) continue;
    if (!selected_) break;
    try {
      parseSweepAxis(text.toStdString(), selected_->params);
      axes.push_back(text.toStdString());
    } catch (const Error& e) {
      error = QString::fromStdString(e.what());
    }
  }
  ui_->axisErrorLabel->setText(error);
  ui_->axisErrorLabel->setVisible(!error.isEmpty());
  if (!error.isEmpty()) return std::nullopt;
  return axes;
}

void MainWindow::updateButtons() {
  const bool idle = !session_->running();
  const bool ready = idle && hasDevice_ && selected_ && ui_->problemEditor->isValid() &&
                     ui_->launchEditor->isValid();
  const auto axes = sweepAxes();
  ui_->runButton->setEnabled(ready);
  ui_->sweepButton->setEnabled(ready && axes && !axes->empty());
  ui_->stopButton->setEnabled(!idle);
  tune_->setReady(hasDevice_ && selected_ && ui_->problemEditor->isValid() &&
                  ui_->launchEditor->isValid());
}

MeasureSettings MainWindow::measureSettings(const std::string& metrics) const {
  MeasureSettings settings;
  settings.budget = ui_->budgetSpin->value();
  settings.metrics = metrics;
  return settings;
}

void MainWindow::start(bool sweep) {
  if (!selected_) return;
  std::string metrics = ui_->metricsCombo->currentText().trimmed().toStdString();
  if (metrics == tr("none").toStdString()) metrics.clear();
  if (!metrics.empty()) {
    try {
      planMetrics(metrics);  // the worker checks names against the chip
    } catch (const Error& e) {
      ui_->messageLabel->setText(QString::fromStdString(e.what()));
      return;
    }
  }
  if (!selectedFile_.isEmpty() && editor_->isModified() && !saveKernel()) return;
  protocol::Kernel kernel = currentKernel();
  JobPlan plan;
  if (sweep) {
    const auto axes = sweepAxes();
    if (!axes || axes->empty()) return;
    for (const auto& axis : *axes) {
      const std::string param = parseSweepAxis(axis, selected_->params).param;
      plan.swept << QString::fromStdString(param);
      kernel.params.erase(param);  // a swept parameter takes its values from the axis
    }
    plan.requests.push_back(protocol::SweepRequest{kernel, *axes, measureSettings(metrics)});
  } else {
    plan.requests.push_back(protocol::RunRequest{kernel, measureSettings(metrics)});
  }
  const QStringList swept = plan.swept;
  results_->clear();
  plot_->setRuns({}, swept.value(0), false);
  roofline_->setRuns({});
  waves_->setRuns({}, 0);
  explain_->showHint(tr("Two runs are needed: the sweep's first and newest are explained."));
  rooflineDevice_.clear();  // its roofs are read again: they may have been measured since
  if (swept.size() > 1) heatmap_->setRuns({}, swept[0], swept[1]);
  ui_->progressBar->setRange(0, 0);  // busy until the first progress message gives a total
  ui_->etaLabel->clear();
  ui_->messageLabel->setText(tr("Starting..."));
  session_->start(std::move(plan));
  QWidget* show = resultsPage_;
  if (sweep) show = swept.size() > 1 ? static_cast<QWidget*>(heatmap_) : plot_;
  ui_->viewTabs->setCurrentWidget(show);
  updateButtons();
}

void MainWindow::endJob(const QString& message) {
  if (!session_->plan().lesson.isEmpty()) {
    lesson_->setBusy(false);
    // The roofs updateRoofline read for the lesson's runs, as they came in.
    lesson_->setDevice(deviceInfo_ ? deviceInfo_->smCount : 0, roofline_->ceilings());
    lesson_->showOutcome(session_->runs());
  }
  ui_->progressBar->setRange(0, 1);
  ui_->progressBar->setValue(1);
  ui_->etaLabel->clear();
  ui_->messageLabel->setText(message);
  updateButtons();
  history_->model()->reload();  // the worker stored what it ran
  emit jobEnded();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("New kernel..."), QKeySequence::New, this, &MainWindow::newKernel);
  file->addAction(tr("Open kernel..."), QKeySequence::Open, this, [this] {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open kernel file"), myKernels_->folder(),
                                     tr("Kernel files (*.cu);;All files (*)"));
    if (!path.isEmpty()) openKernel(path);
  });
  file->addAction(tr("Save kernel"), QKeySequence::Save, this, &MainWindow::saveKernel);
  file->addAction(tr("Check memory of the kernel"), this, &MainWindow::checkMemory);
  file->addSeparator();
  file->addAction(tr("Export chart..."), QKeySequence(Qt::CTRL | Qt::Key_E), this,
                  &MainWindow::exportChart);
  file->addAction(tr("Copy chart"), QKeySequence::Copy, this, [this] {
    if (QCustomPlot* chart = currentChart()) {
      copyChart(chart, chart->width(), chart->height());
      statusBar()->showMessage(tr("Chart copied to the clipboard."), 5000);
    }
  });
  file->addAction(tr("Export results..."), this, &MainWindow::exportResults);
  file->addAction(tr("Export report..."), this, &MainWindow::exportReport);
  file->addSeparator();
  file->addAction(tr("Settings..."), this, [this] {
    SettingsDialog dialog(settings_, this);
    if (dialog.exec() != QDialog::Accepted) return;
    // Another host, device, GPUs or Slurm: another worker.
    const bool moved = dialog.settings().workerArguments() != settings_.workerArguments();
    settings_ = dialog.settings();
    settings_.save();
    if (moved) moveWorker();
    ui_->budgetSpin->setValue(settings_.budgetSeconds);
    myKernels_->setFolder(settings_.kernelsFolder.isEmpty() ? MyKernels::defaultFolder()
                                                            : settings_.kernelsFolder);
  });
  file->addSeparator();
  file->addAction(tr("Quit"), QKeySequence::Quit, this, &QWidget::close);
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("About Kernel Workbench"), this,
                  [this] { QMessageBox::about(this, tr("About Kernel Workbench"), aboutText()); });
}

QString MainWindow::aboutText() const {
  // What the worker, which runs the kernels, was built with and finds here.
  QProcess worker;
  worker.start(worker_->program(), {"--version"});
  const bool answered = worker.waitForFinished(5000) && worker.exitCode() == 0;
  const QString build = answered ? QString::fromUtf8(worker.readAllStandardOutput()).trimmed()
                                 : tr("The worker (%1) did not say.").arg(worker_->program());
  return tr("<b>Kernel Workbench</b><br>A workbench for exploring CUDA kernels.<pre>%1\nQt: "
            "%2</pre>")
      .arg(build.toHtmlEscaped(), QString::fromLatin1(qVersion()));
}

QCustomPlot* MainWindow::currentChart() const {
  QWidget* tab = ui_->viewTabs->currentWidget();
  if (tab == plot_) return plot_->plot();
  if (tab == heatmap_) return heatmap_->plot();
  if (tab == history_) return history_->currentChart();
  return nullptr;
}

void MainWindow::exportChart() {
  QCustomPlot* chart = currentChart();
  if (!chart) {
    statusBar()->showMessage(tr("Show a chart first: the sweep plot, the heatmap or the history."),
                             6000);
    return;
  }
  ChartExportDialog dialog("chart.png", this);
  if (dialog.exec() != QDialog::Accepted) return;
  if (saveChart(chart, dialog.path(), dialog.chartWidth(), dialog.chartHeight()))
    statusBar()->showMessage(tr("Saved %1").arg(dialog.path()), 6000);
  else
    QMessageBox::warning(this, tr("Export chart"),
                         tr("Could not write %1: use a .png, .pdf or .jpg file in a folder you "
                            "can write to.")
                             .arg(dialog.path()));
}

QString MainWindow::exportPath(const QString& title, const QString& suggested,
                               const QString& filter) {
  if (results_->runs().empty()) {
    statusBar()->showMessage(tr("No results yet: run or sweep first."), 6000);
    return {};
  }
  return QFileDialog::getSaveFileName(this, title, suggested, filter);
}

void MainWindow::exportResults() {
  const QString path =
      exportPath(tr("Export results"), "results.csv", tr("CSV (*.csv);;JSON (*.json)"));
  if (path.isEmpty()) return;
  const std::string deviceName = deviceInfo_ ? deviceInfo_->name : std::string();
  std::vector<RunRecord> records;
  for (const auto& run : results_->runs()) records.push_back({0, {}, deviceName, run, {}});
  try {
    kwb::exportRuns(
        path.toStdString(), records,
        path.endsWith(".json", Qt::CaseInsensitive) ? ExportFormat::Json : ExportFormat::Csv);
    statusBar()->showMessage(
        tr("Exported %n result(s) to %1", nullptr, int(records.size())).arg(path), 6000);
  } catch (const Error& e) {
    QMessageBox::warning(this, tr("Export results"), QString::fromStdString(e.what()));
  }
}

bool MainWindow::startLesson(const QString& id, double prediction) {
  if (session_->running() || !findLesson(id.toStdString())) return false;
  lesson_->selectLesson(id);
  if (prediction > 0) lesson_->setPrediction(prediction);
  const Lesson& l = lesson_->current();
  std::optional<protocol::Kernel> yours;
  if (!l.exercise.empty()) {
    yours = exerciseKernel(l);
    if (!yours) return false;
  }
  JobPlan plan = lessonPlan(l, measureSettings(l.metrics), yours);
  results_->clear();
  rooflineDevice_.clear();  // its roofs are read again with the first run, for the lesson's view
  lesson_->setBusy(true);
  ui_->progressBar->setRange(0, 0);
  ui_->messageLabel->setText(tr("Running the lesson..."));
  session_->start(std::move(plan));
  ui_->viewTabs->setCurrentWidget(lesson_);
  updateButtons();
  return true;
}

Report MainWindow::report() const {
  Report out;
  out.device = deviceInfo_;
  out.runs = results_->runs();
  if (!out.runs.empty())
    out.title = QString::fromStdString(out.runs.front().family + "/" + out.runs.front().variant) +
                (deviceInfo_ ? " on " + QString::fromStdString(deviceInfo_->name) : QString());
  else
    out.title = tr("No runs yet");
  // The sweep plot once a sweep ran, the heatmap once it had two axes.
  const QStringList& swept = session_->plan().swept;
  if (!out.runs.empty() && !swept.isEmpty())
    out.charts.push_back({tr("Median time and bandwidth against %1").arg(swept[0]),
                          plot_->plot()->toPixmap(600, 300, 2.0).toImage()});
  if (!out.runs.empty() && swept.size() > 1)
    out.charts.push_back({tr("%1 against %2").arg(swept[0], swept[1]),
                          heatmap_->plot()->toPixmap(600, 300, 2.0).toImage()});
  return out;
}

void MainWindow::exportReport() {
  const QString path =
      exportPath(tr("Export report"), "report.pdf", tr("PDF (*.pdf);;HTML (*.html)"));
  if (path.isEmpty()) return;
  if (writeReport(report(), path))
    statusBar()->showMessage(tr("Saved %1").arg(path), 6000);
  else
    QMessageBox::warning(this, tr("Export report"),
                         tr("Could not write %1: use a .pdf or .html file in a folder you can "
                            "write to.")
                             .arg(path));
}

}  // namespace kwb
