#include "widgets/chartexportdialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace kwb {

ChartExportDialog::ChartExportDialog(const QString& suggestedPath, QWidget* parent)
    : QDialog(parent) {
  setWindowTitle(tr("Export chart"));
  auto* form = new QFormLayout(this);
  path_ = new QLineEdit(suggestedPath, this);
  auto* browse = new QPushButton(tr("Browse..."), this);
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString chosen = QFileDialog::getSaveFileName(
        this, tr("Export chart"), path_->text(), tr("PNG (*.png);;PDF (*.pdf);;JPG (*.jpg)"));
    if (!chosen.isEmpty()) path_->setText(chosen);
  });
  auto* row = new QHBoxLayout;
  row->addWidget(path_, 1);
  row->addWidget(browse);
  form->addRow(tr("File (.png, .pdf, .jpg)"), row);
  width_ = new QSpinBox(this);
  height_ = new QSpinBox(this);
  for (auto* box : {width_, height_}) {
    box->setRange(200, 8000);
    box->setSuffix(" px");
  }
  width_->setValue(1600);
  height_->setValue(900);
  form->addRow(tr("Width"), width_);
  form->addRow(tr("Height"), height_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  form->addRow(buttons);
}

QString ChartExportDialog::path() const {
  return path_->text().trimmed();
}
int ChartExportDialog::chartWidth() const {
  return width_->value();
}
int ChartExportDialog::chartHeight() const {
  return height_->value();
}

}  // namespace kwb
