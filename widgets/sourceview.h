#pragma once

#include <string>

#include <QWidget>

class QComboBox;
class QLabel;
class QPlainTextEdit;

namespace kwb {

// The selected variant's CUDA source, built into the GUI and syntax-highlighted, one file at a
// time: the kernel itself first, opened where the variant's own kernel starts, then what it
// builds on.
class SourceView : public QWidget {
  Q_OBJECT

 public:
  explicit SourceView(QWidget* parent = nullptr);

  void setVariant(const std::string& family, const std::string& variant);
  // The file shown, its text and the number of the first line in sight (from 0), for tests.
  QString currentFile() const;
  QString text() const;
  int topLine() const;

 private:
  void showFile(int index);

  QComboBox* files_;
  QLabel* note_;
  QPlainTextEdit* editor_;
  QString entry_;  // where the variant's kernel starts in its first file
};

}  // namespace kwb
