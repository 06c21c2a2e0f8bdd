#pragma once

#include <QWidget>

#include "core/sass.h"

class QComboBox;
class QLabel;
class QPlainTextEdit;

namespace kwb {

// One side of the SASS view: the kernels a configuration launches, one listing at a time,
// highlighted, with the counts of the instructions that matter above it.
class SassPane : public QWidget {
  Q_OBJECT

 public:
  explicit SassPane(QWidget* parent = nullptr);

  // A line in place of the listing: "Reading the machine code...", an error.
  void showMessage(const QString& message);
  void showReport(const SassReport& report);

  // For tests and scripts.
  QString status() const;
  QStringList kernelNames() const;
  QString counts() const;
  QString listing() const;

 private:
  void showKernel(int index);

  SassReport report_;
  QLabel* status_;
  QComboBox* kernels_;
  QLabel* counts_;
  QPlainTextEdit* listing_;
};

}  // namespace kwb
