#pragma once

#include <QDialog>

class QLineEdit;
class QSpinBox;

namespace kwb {

// Where and how large to save a chart: PNG, JPG or PDF by the file's suffix, at a chosen size.
class ChartExportDialog : public QDialog {
  Q_OBJECT

 public:
  explicit ChartExportDialog(const QString& suggestedPath, QWidget* parent = nullptr);
  QString path() const;
  int chartWidth() const;
  int chartHeight() const;

 private:
  QLineEdit* path_;
  QSpinBox* width_;
  QSpinBox* height_;
};

}  // namespace kwb
