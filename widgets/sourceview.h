#pragma once

#include <string>

#include <QWidget>

class QComboBox;
class QLabel;
class QPlainTextEdit;

namespace kwb {

// The selected variant's CUDA source, built into the GUI and syntax-highlighted, one file at a
// time: the kernel itself first, then what it builds on.
class SourceView : public QWidget {
  Q_OBJECT

 public:
  explicit SourceView(QWidget* parent = nullptr);

  void setVariant(const std::string& family, const std::string& variant);
  // The file shown and its text, for tests.
  QString currentFile() const;
  QString text() const;

 private:
  void showFile(int index);

  QComboBox* files_;
  QLabel* note_;
  QPlainTextEdit* editor_;
};

}  // namespace kwb
