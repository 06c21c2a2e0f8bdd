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

Settings SettingsDialog::settings() const {
  Settings s = shown_;
  s.databasePath = ui_->databaseEdit->text().trimmed();
  s.device = ui_->deviceSpin->value();
  s.budgetSeconds = ui_->budgetSpin->value();
  s.kernelsFolder = ui_->kernelsEdit->text().trimmed();
  return s;
}

}  // namespace kwb
