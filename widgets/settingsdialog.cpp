#include "widgets/settingsdialog.h"

#include <QFileDialog>

#include "ui_settingsdialog.h"
#include "widgets/mykernels.h"

namespace kwb {

SettingsDialog::SettingsDialog(const Settings& settings, QWidget* parent)
    : QDialog(parent), ui_(std::make_unique<Ui::SettingsDialog>()), shown_(settings) {
  ui_->setupUi(this);
  ui_->databaseEdit->setText(settings.databasePath);
  ui_->deviceSpin->setValue(settings.device);
  ui_->devicesEdit->setText(settings.devices);
  ui_->slurmCheck->setChecked(settings.slurm);
  ui_->partitionEdit->setText(settings.partition);
  ui_->gresEdit->setText(settings.gres);
  ui_->tasksSpin->setValue(settings.tasks);
  ui_->hostCombo->addItem(thisMachine());
  ui_->hostCombo->addItems(settings.hosts);
  ui_->hostCombo->setCurrentText(settings.host.isEmpty() ? thisMachine() : settings.host);
  connect(ui_->forgetHostButton, &QPushButton::clicked, this, [this] {
    const int at = ui_->hostCombo->currentIndex();
    if (at > 0 && ui_->hostCombo->itemText(at) == ui_->hostCombo->currentText())
      ui_->hostCombo->removeItem(at);
    ui_->hostCombo->setCurrentIndex(0);
  });
  ui_->budgetSpin->setValue(settings.budgetSeconds);
  ui_->kernelsEdit->setText(settings.kernelsFolder);
  ui_->kernelsEdit->setPlaceholderText(MyKernels::defaultFolder());
  connect(ui_->kernelsBrowseButton, &QPushButton::clicked, this, [this] {
    const QString start =
        ui_->kernelsEdit->text().isEmpty() ? MyKernels::defaultFolder() : ui_->kernelsEdit->text();
    const QString chosen = QFileDialog::getExistingDirectory(this, tr("Kernel files"), start);
    if (!chosen.isEmpty()) ui_->kernelsEdit->setText(chosen);
  });
  connect(ui_->browseButton, &QPushButton::clicked, this, [this] {
    const QString chosen = QFileDialog::getSaveFileName(
        this, tr("History database"), ui_->databaseEdit->text(), tr("SQLite (*.sqlite *.db)"),
        nullptr, QFileDialog::DontConfirmOverwrite);
    if (!chosen.isEmpty()) ui_->databaseEdit->setText(chosen);
  });
}

SettingsDialog::~SettingsDialog() = default;

QString SettingsDialog::thisMachine() {
  return tr("This machine");
}

Settings SettingsDialog::settings() const {
  Settings s = shown_;
  s.databasePath = ui_->databaseEdit->text().trimmed();
  s.device = ui_->deviceSpin->value();
  s.devices = ui_->devicesEdit->text().simplified().remove(' ');
  s.slurm = ui_->slurmCheck->isChecked();
  s.partition = ui_->partitionEdit->text().trimmed();
  s.gres = ui_->gresEdit->text().trimmed();
  s.tasks = ui_->tasksSpin->value();
  const QString host = ui_->hostCombo->currentText().trimmed();
  s.host = host == thisMachine() ? QString() : host;
  s.hosts.clear();
  for (int i = 1; i < ui_->hostCombo->count(); ++i) s.hosts << ui_->hostCombo->itemText(i);
  if (!s.host.isEmpty() && !s.hosts.contains(s.host)) s.hosts << s.host;
  s.budgetSeconds = ui_->budgetSpin->value();
  s.kernelsFolder = ui_->kernelsEdit->text().trimmed();
  return s;
}

}  // namespace kwb
