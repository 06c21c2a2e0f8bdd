// The main window's side of users' kernel files: "My kernels" in the tree, the editor, the spec
// read as it is typed, compile errors marked, and File > New / Open / Save kernel.
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QTreeView>

#include <nlohmann/json.hpp>

#include "core/kerneltemplate.h"
#include "ui_mainwindow.h"
#include "widgets/kerneleditor.h"
#include "widgets/kerneltreemodel.h"
#include "widgets/mainwindow.h"
#include "widgets/mykernels.h"
#include "widgets/parameditor.h"
#include "widgets/sourceview.h"
#include "widgets/tunepage.h"
#include "widgets/workerclient.h"

namespace kwb {
namespace {

// A spec's error, "t.cu:18: params.TILE.default: ...", as a marker on its line.
std::vector<Diagnostic> specDiagnostics(const QString& path, const QString& error) {
  static const QRegularExpression line(R"(^.*?:(\d+): (.*)$)");
  const auto match = line.match(error.section('\n', 0, 0));
  if (!match.hasMatch()) return {};
  return {
      {path.toStdString(), match.captured(1).toInt(), 0, "error", match.captured(2).toStdString()}};
}

// Whether two lists of parameters would show the same editors: then the values typed stay.
bool sameEditors(const std::vector<ParamSpec>& a, const std::vector<ParamSpec>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].name != b[i].name || a[i].role != b[i].role || a[i].kind != b[i].kind ||
        a[i].allowedText() != b[i].allowedText() || a[i].defaultValue != b[i].defaultValue)
      return false;
  return true;
}

}  // namespace

bool MainWindow::openKernel(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  if (!QFileInfo(absolute).isReadable()) {
    statusBar()->showMessage(tr("%1 cannot be read.").arg(path), 8000);
    return false;
  }
  myKernels_->add(absolute);
  refreshKernelFiles();
  const QModelIndex index = kernels_->indexOfFile(absolute);
  if (!index.isValid()) return false;
  ui_->kernelTree->setCurrentIndex(index);
  if (selectedFile_ != absolute) showKernelFile(absolute);
  return true;
}

void MainWindow::refreshKernelFiles() {
  const QModelIndex before = ui_->kernelTree->currentIndex();
  const QString path = before.data(KernelTreeModel::PathRole).toString();
  const QString family = before.data(KernelTreeModel::FamilyRole).toString();
  const QString variant = before.data(KernelTreeModel::VariantRole).toString();
  // The same item stays selected, without being selected anew.
  const QSignalBlocker quiet(ui_->kernelTree->selectionModel());
  kernels_->setKernelFiles(myKernels_->items());
  ui_->kernelTree->expandAll();
  ui_->kernelTree->setCurrentIndex(!path.isEmpty() ? kernels_->indexOfFile(path)
                                                   : kernels_->indexOf(family, variant));
}

void MainWindow::showKernelFile(const QString& path) {
  if (editor_->path() != path) {
    if (editor_->isModified()) saveKernel();
    QString error;
    if (!editor_->open(path, &error)) {
      ui_->messageLabel->setText(error);
      return;
    }
  }
  selectedFile_ = path;
  ui_->viewTabs->setTabText(ui_->viewTabs->indexOf(editor_), QFileInfo(path).fileName());
  selected_.reset();  // the editors are set afresh from the file's spec
  source_->setVariant({}, {});
  specDelay_->stop();  // loading is no edit: read once, now, not again when the compile errors
                       // are marked
  readEditedSpec();
  ui_->viewTabs->setCurrentWidget(editor_);
}

void MainWindow::readEditedSpec() {
  if (selectedFile_.isEmpty()) return;
  const KernelFileItem item = kernelFileItem(selectedFile_, editor_->text());
  if (!item.variant) {
    selected_.reset();  // nothing runs until the spec reads again
    ui_->messageLabel->setText(item.error);
    editor_->setDiagnostics(specDiagnostics(selectedFile_, item.error));
    updateButtons();
    return;
  }
  if (editor_->diagnosticCount() > 0 && !ui_->messageLabel->text().isEmpty())
    ui_->messageLabel->clear();
  editor_->setDiagnostics({});
  const bool keep = selected_ && sameEditors(selected_->params, item.variant->params);
  selected_ = *item.variant;
  ui_->teachesLabel->setText(QString::fromStdString(selected_->teaches));
  if (!keep) {
    ui_->problemEditor->setSpecs(withRole(selected_->params, ParamRole::Problem));
    ui_->launchEditor->setSpecs(withRole(selected_->params, ParamRole::Launch));
    tune_->setParams(withRole(selected_->params, ParamRole::Launch));
  }
  updateButtons();
  derivedDelay_->start();
}

void MainWindow::markCompileErrors(const QString& message) {
  if (selectedFile_.isEmpty()) return;
  const auto diagnostics = parseDiagnostics(message.toStdString());
  if (diagnostics.empty()) return;
  editor_->setDiagnostics(diagnostics);
  ui_->viewTabs->setCurrentWidget(editor_);
}

bool MainWindow::saveKernel() {
  if (editor_->path().isEmpty()) return false;
  QString error;
  if (!editor_->save(&error)) {
    ui_->messageLabel->setText(error);
    return false;
  }
  statusBar()->showMessage(tr("Saved %1.").arg(editor_->path()), 4000);
  refreshKernelFiles();
  return true;
}

void MainWindow::newKernel() {
  QStringList labels;
  const auto names = kernelTemplateNames();
  for (const auto& name : names)
    labels << (name == "user" ? tr("A kernel with a reference kernel of its own")
                              : tr("A kernel that implements %1, checked as its variants are")
                                    .arg(QString::fromStdString(name)));
  bool chosen = false;
  const QString label =
      QInputDialog::getItem(this, tr("New kernel"), tr("Start from:"), labels, 0, false, &chosen);
  if (!chosen) return;
  const std::string name = names[static_cast<std::size_t>(labels.indexOf(label))];
  QString path = QFileDialog::getSaveFileName(
      this, tr("New kernel file"),
      QDir(myKernels_->folder()).filePath(QString::fromStdString("my_" + name + ".cu")),
      tr("Kernel files (*.cu)"));
  if (path.isEmpty()) return;
  if (!path.endsWith(".cu")) path += ".cu";
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
      file.write(QByteArray::fromStdString(kernelTemplate(name))) < 0) {
    ui_->messageLabel->setText(tr("%1 cannot be written: %2").arg(path, file.errorString()));
    return;
  }
  file.close();
  openKernel(path);
}

QString MainWindow::exercisePath(const Lesson& lesson) const {
  return QDir(myKernels_->folder()).filePath(QString::fromStdString(lesson.id + ".cu"));
}

void MainWindow::openExercise(const Lesson& lesson) {
  const QString path = exercisePath(lesson);
  if (!QFileInfo::exists(path)) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(QByteArray::fromStdString(kernelTemplate(lesson.exercise))) < 0) {
      ui_->messageLabel->setText(tr("%1 cannot be written: %2").arg(path, file.errorString()));
      return;
    }
  }
  openKernel(path);
}

std::optional<protocol::Kernel> MainWindow::exerciseKernel(const Lesson& lesson) {
  const QString path = QFileInfo(exercisePath(lesson)).absoluteFilePath();
  if (!QFileInfo::exists(path)) {
    ui_->messageLabel->setText(tr("Open the starting file first, and complete it."));
    return std::nullopt;
  }
  if (editor_->path() == path && editor_->isModified() && !saveKernel()) return std::nullopt;
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    ui_->messageLabel->setText(tr("%1 cannot be read: %2").arg(path, file.errorString()));
    return std::nullopt;
  }
  const QString text = QString::fromUtf8(file.readAll());
  const KernelFileItem item = kernelFileItem(path, text);
  if (!item.variant) {
    ui_->messageLabel->setText(item.error);
    return std::nullopt;
  }
  return protocol::Kernel{
      {}, {}, exerciseParams(lesson, item.variant->params), path.toStdString(), text.toStdString()};
}

void MainWindow::checkMemory() {
  if (selectedFile_.isEmpty() || !selected_) {
    ui_->messageLabel->setText(tr("Select a kernel file of yours to check its memory accesses."));
    return;
  }
  if (editor_->isModified() && !saveKernel()) return;
  // compute-sanitizer runs beside this window: on this machine's device, whatever the host.
  QStringList arguments{"--db", databaseInUse_, "--device", QString::number(settings_.device)};
  arguments << "--json"
            << "run" << selectedFile_;
  for (const auto& [name, value] : currentParams())
    arguments << QString::fromStdString(name + "=" + value);
  arguments << "--sanitize";
  auto* process = new QProcess(this);
  ui_->messageLabel->setText(tr("Checking memory: one call under compute-sanitizer..."));
  connect(process, &QProcess::finished, this, [this, process](int code) {
    process->deleteLater();
    const QByteArray out = process->readAllStandardOutput();
    const auto report = nlohmann::json::parse(out.toStdString(), nullptr, false);
    if (report.is_discarded() || !report.contains("errors")) {
      const QString said = QString::fromUtf8(process->readAllStandardError()).trimmed();
      ui_->messageLabel->setText(said.isEmpty() ? tr("The memory check failed (exit %1).").arg(code)
                                                : said);
      return;
    }
    std::vector<Diagnostic> marks;
    for (const auto& f : report.at("findings"))
      marks.push_back(
          {f.value("file", ""), f.value("line", 0), 0, "error",
           f.value("what", "") + ", " + f.value("thread", "") + "; " + f.value("address", "")});
    editor_->setDiagnostics(marks);
    const auto errors = report.at("errors").get<int>();
    ui_->messageLabel->setText(
        errors == 0
            ? tr("Memory check: no errors in one checked call.")
            : tr("Memory check: %n error(s), the first marked on their lines.", nullptr, errors));
    if (errors > 0) ui_->viewTabs->setCurrentWidget(editor_);
  });
  process->start(worker_->program(), arguments);
}

protocol::Kernel MainWindow::currentKernel() const {
  if (selectedFile_.isEmpty()) return {selected_->family, selected_->name, currentParams()};
  return {{}, {}, currentParams(), selectedFile_.toStdString(), editor_->text().toStdString()};
}

}  // namespace kwb
