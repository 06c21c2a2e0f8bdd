#pragma once

#include <QWidget>

#include <vector>

#include "core/diagnostic.h"

class QFileSystemWatcher;
class QLabel;
class QLineEdit;
class QsciScintilla;

namespace kwb {

// A user's kernel file in a code editor (QScintilla): CUDA colours, line numbers, find
// (Ctrl+F), the compiler's diagnostics as markers and notes under their lines, and the file
// watched on disk: changes made in another editor are loaded where this one has none of its own,
// and offered where it has.
class KernelEditor : public QWidget {
  Q_OBJECT

 public:
  explicit KernelEditor(QWidget* parent = nullptr);

  // False with the reason where the file cannot be read or written.
  bool open(const QString& path, QString* error);
  bool save(QString* error);
  QString path() const { return path_; }
  QString text() const;
  bool isModified() const;
  // Errors and warnings about this file (others are left out): a marker in the margin, the
  // message under its line, the column underlined. An empty list clears them.
  void setDiagnostics(const std::vector<Diagnostic>& diagnostics);
  int diagnosticCount() const { return diagnosticCount_; }
  void showFind();
  QsciScintilla* scintilla() const { return edit_; }

 signals:
  void textEdited();  // typed, or loaded again from disk
  void reloaded();

 private:
  bool load(QString* error);
  void onFileChanged();
  void find(bool forward);

  QsciScintilla* edit_;
  QWidget* findBar_;
  QLineEdit* findEdit_;
  QWidget* diskBar_;
  QLabel* diskLabel_;
  QFileSystemWatcher* watcher_;
  QString path_;
  QString saved_;  // the text last read or written: what disk holds unless another editor wrote
  int diagnosticCount_ = 0;
};

}  // namespace kwb
