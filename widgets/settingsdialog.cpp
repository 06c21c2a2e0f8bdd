#include "widgets/settingsdialog.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace kwb {

SettingsDialog::SettingsDialog(const Settings& settings, QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Settings"));
  auto* form = new QFormLayout(this);
  database_ = new QLineEdit(settings.databasePath, this);
  auto* browse = new QPushButton(tr("Browse..."), this);
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString chosen = QFileDialog::getSaveFileName(
        this, tr("History database"), database_->text(), tr("SQLite (*.sqlite *.db)"), nullptr,
        QFileDialog::DontConfirmOverwrite);
    if (!chosen.isEmpty()) database_->setText(chosen);
  });
  auto* row = new QHBoxLayout;
  row->addWidget(database_, 1);
  row->addWidget(browse);
  form->addRow(tr("History database"), row);
  device_ = new QSpinBox(this);
  device_->setRange(0, 63);
  device_->setValue(settings.device);
  form->addRow(tr("CUDA device (ordinal)"), device_);
  budget_ = new QDoubleSpinBox(this);
  budget_->setRange(0.01, 60);
  budget_->setSuffix(" s");
  budget_->setValue(settings.budgetSeconds);
  form->addRow(tr("Timing budget per point"), budget_);
  auto* note = new QLabel(tr("The database and the device take effect at the next start."), this);
  note->setWordWrap(true);
  form->addRow(note);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  form->addRow(buttons);
}

Settings SettingsDialog::settings() const {
  return {database_->text().trimmed(), device_->value(), budget_->value()};
}

}  // namespace kwb
