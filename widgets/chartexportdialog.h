#pragma once

#include <QDialog>

#include <memory>

namespace Ui {
class ChartExportDialog;
}

namespace kwb {

// Where and how large to save a chart: PNG, JPG or PDF by the file's suffix, at a chosen size.
class ChartExportDialog : public QDialog {
  Q_OBJECT

 public:
  explicit ChartExportDialog(const QString& suggestedPath, QWidget* parent = nullptr);
  ~ChartExportDialog() override;
  QString path() const;
  int chartWidth() const;
  int chartHeight() const;

 private:
  std::unique_ptr<Ui::ChartExportDialog> ui_;
};

}  // namespace kwb
