#include "widgets/chartexportdialog.h"

#include <QFileDialog>

#include "ui_chartexportdialog.h"

namespace kwb {

ChartExportDialog::ChartExportDialog(const QString& suggestedPath, QWidget* parent)
    : QDialog(parent), ui_(std::make_unique<Ui::ChartExportDialog>()) {
  ui_->setupUi(this);
  ui_->pathEdit->setText(suggestedPath);
  connect(ui_->browseButton, &QPushButton::clicked, this, [this] {
    const QString chosen =
        QFileDialog::getSaveFileName(this, tr("Export chart"), ui_->pathEdit->text(),
                                     tr("PNG (*.png);;PDF (*.pdf);;JPG (*.jpg)"));
    if (!chosen.isEmpty()) ui_->pathEdit->setText(chosen);
  });
}

ChartExportDialog::~ChartExportDialog() = default;

QString ChartExportDialog::path() const {
  return ui_->pathEdit->text().trimmed();
}
int ChartExportDialog::chartWidth() const {
  return ui_->widthSpin->value();
}
int ChartExportDialog::chartHeight() const {
  return ui_->heightSpin->value();
}

}  // namespace kwb
