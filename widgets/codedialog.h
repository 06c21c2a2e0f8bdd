#pragma once

#include <QDialog>
#include <QList>

class QsciScintilla;

namespace kwb {

// What a stored run of a kernel file ran, in a window of its own: its code (the file, its
// SHA-256, the text in CUDA colours), or with two runs how their code differs, as `kwb code`
// prints it.
class CodeDialog : public QDialog {
  Q_OBJECT

 public:
  // Throws Error naming a run that is not of a kernel file.
  CodeDialog(const QString& databasePath, const QList<qint64>& runs, QWidget* parent = nullptr);
  QString text() const;

 private:
  QsciScintilla* view_;
};

}  // namespace kwb
