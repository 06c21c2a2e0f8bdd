#include "widgets/kerneleditor.h"

#include <algorithm>
#include <functional>

#include <Qsci/qsciscintilla.h>
#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QShortcut>
#include <QVBoxLayout>

#include "widgets/cudalexer.h"

namespace kwb {
namespace {

constexpr int kErrorMarker = 1;
constexpr int kWarningMarker = 2;
constexpr int kColumnIndicator = 8;
constexpr int kErrorNote = 40;  // annotation styles, past the lexer's
constexpr int kWarningNote = 41;

// Esc in the find box closes it; Shift+Enter searches backwards.
class FindEdit : public QLineEdit {
 public:
  std::function<void(bool)> onFind;
  std::function<void()> onClose;

 protected:
  void keyPressEvent(QKeyEvent* event) override {
    if (event->key() == Qt::Key_Escape) return onClose();
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter)
      return onFind(!(event->modifiers() & Qt::ShiftModifier));
    QLineEdit::keyPressEvent(event);
  }
};

}  // namespace

KernelEditor::KernelEditor(QWidget* parent)
    : QWidget(parent), edit_(new QsciScintilla(this)), watcher_(new QFileSystemWatcher(this)) {
  edit_->setLexer(new CudaLexer(edit_));
  edit_->setUtf8(true);
  edit_->setIndentationsUseTabs(false);
  edit_->setTabWidth(2);
  edit_->setAutoIndent(true);
  edit_->setBraceMatching(QsciScintilla::SloppyBraceMatch);
  edit_->setCaretLineVisible(true);
  edit_->setCaretLineBackgroundColor(QColor(245, 245, 235));
  edit_->setEdgeMode(QsciScintilla::EdgeLine);
  edit_->setEdgeColumn(100);
  edit_->setMarginType(0, QsciScintilla::NumberMargin);
  edit_->setMarginLineNumbers(0, true);
  edit_->setMarginWidth(0, "00000");
  edit_->setMarginType(1, QsciScintilla::SymbolMargin);
  edit_->setMarginWidth(1, 14);
  edit_->setMarginMarkerMask(1, (1 << kErrorMarker) | (1 << kWarningMarker));
  edit_->markerDefine(QsciScintilla::Circle, kErrorMarker);
  edit_->setMarkerBackgroundColor(QColor(200, 30, 30), kErrorMarker);
  edit_->markerDefine(QsciScintilla::Circle, kWarningMarker);
  edit_->setMarkerBackgroundColor(QColor(220, 150, 0), kWarningMarker);
  edit_->indicatorDefine(QsciScintilla::SquiggleIndicator, kColumnIndicator);
  edit_->setIndicatorForegroundColor(QColor(200, 30, 30), kColumnIndicator);
  edit_->setAnnotationDisplay(QsciScintilla::AnnotationBoxed);
  edit_->SendScintilla(QsciScintilla::SCI_STYLESETBACK, kErrorNote, QColor(255, 228, 228));
  edit_->SendScintilla(QsciScintilla::SCI_STYLESETFORE, kErrorNote, QColor(150, 0, 0));
  edit_->SendScintilla(QsciScintilla::SCI_STYLESETBACK, kWarningNote, QColor(255, 243, 205));
  connect(edit_, &QsciScintilla::textChanged, this, &KernelEditor::textEdited);

  // The find bar, below the text.
  findBar_ = new QWidget(this);
  auto* find = new FindEdit;
  findEdit_ = find;
  find->setPlaceholderText(tr("Find (Enter: next, Shift+Enter: previous, Esc: close)"));
  find->onFind = [this](bool forward) { this->find(forward); };
  find->onClose = [this] {
    findBar_->hide();
    edit_->setFocus();
  };
  auto* next = new QPushButton(tr("Next"));
  auto* previous = new QPushButton(tr("Previous"));
  connect(next, &QPushButton::clicked, this, [this] { this->find(true); });
  connect(previous, &QPushButton::clicked, this, [this] { this->find(false); });
  auto* findLayout = new QHBoxLayout(findBar_);
  findLayout->setContentsMargins(0, 0, 0, 0);
  findLayout->addWidget(find, 1);
  findLayout->addWidget(previous);
  findLayout->addWidget(next);
  findBar_->hide();
  auto* shortcut = new QShortcut(QKeySequence::Find, this);
  shortcut->setContext(Qt::WidgetWithChildrenShortcut);
  connect(shortcut, &QShortcut::activated, this, &KernelEditor::showFind);

  // Said when another program changed the file while this one has changes of its own.
  diskBar_ = new QWidget(this);
  diskLabel_ = new QLabel;
  diskLabel_->setWordWrap(true);
  auto* reload = new QPushButton(tr("Load theirs"));
  auto* keep = new QPushButton(tr("Keep mine"));
  connect(reload, &QPushButton::clicked, this, [this] {
    QString error;
    if (load(&error)) emit reloaded();
    diskBar_->hide();
  });
  connect(keep, &QPushButton::clicked, diskBar_, &QWidget::hide);
  auto* diskLayout = new QHBoxLayout(diskBar_);
  diskLayout->setContentsMargins(4, 2, 4, 2);
  diskLayout->addWidget(diskLabel_, 1);
  diskLayout->addWidget(reload);
  diskLayout->addWidget(keep);
  diskBar_->setStyleSheet("background: #fff3cd;");
  diskBar_->hide();

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addWidget(diskBar_);
  layout->addWidget(edit_, 1);
  layout->addWidget(findBar_);
  connect(watcher_, &QFileSystemWatcher::fileChanged, this, &KernelEditor::onFileChanged);
}

QString KernelEditor::text() const {
  return edit_->text();
}

bool KernelEditor::isModified() const {
  return edit_->isModified();
}

bool KernelEditor::open(const QString& path, QString* error) {
  const QString previous = path_;
  path_ = path;
  if (!load(error)) {
    path_ = previous;
    return false;
  }
  // A new file opens on its code, with the end of its spec above it.
  const int specEnd = static_cast<int>(saved_.left(saved_.indexOf("*/")).count('\n'));
  edit_->setFirstVisibleLine(std::max(0, specEnd - 12));
  if (!previous.isEmpty() && previous != path) watcher_->removePath(previous);
  diskBar_->hide();
  return true;
}

bool KernelEditor::load(QString* error) {
  QFile file(path_);
  if (!file.open(QIODevice::ReadOnly)) {
    if (error) *error = tr("%1 cannot be read: %2").arg(path_, file.errorString());
    return false;
  }
  saved_ = QString::fromUtf8(file.readAll());
  const long line = edit_->SendScintilla(QsciScintilla::SCI_GETFIRSTVISIBLELINE);
  edit_->setText(saved_);
  edit_->SendScintilla(QsciScintilla::SCI_SETFIRSTVISIBLELINE, static_cast<unsigned long>(line));
  edit_->setModified(false);
  setDiagnostics({});
  if (!watcher_->files().contains(path_)) watcher_->addPath(path_);
  return true;
}

bool KernelEditor::save(QString* error) {
  const QString text = edit_->text();
  QFile file(path_);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(text.toUtf8()) < 0) {
    if (error) *error = tr("%1 cannot be written: %2").arg(path_, file.errorString());
    return false;
  }
  file.close();
  saved_ = text;
  edit_->setModified(false);
  if (!watcher_->files().contains(path_)) watcher_->addPath(path_);
  return true;
}

void KernelEditor::onFileChanged() {
  // Editors that save by renaming a new file into place take the watch with the old one.
  if (QFileInfo::exists(path_) && !watcher_->files().contains(path_)) watcher_->addPath(path_);
  QFile file(path_);
  if (!file.open(QIODevice::ReadOnly)) return;
  const QString onDisk = QString::fromUtf8(file.readAll());
  if (onDisk == saved_) return;  // our own save
  if (!isModified()) {
    QString error;
    if (load(&error)) emit reloaded();
    return;
  }
  diskLabel_->setText(
      tr("%1 was changed by another program, and this editor has changes of its own.")
          .arg(QFileInfo(path_).fileName()));
  diskBar_->show();
}

void KernelEditor::setDiagnostics(const std::vector<Diagnostic>& diagnostics) {
  edit_->markerDeleteAll();
  edit_->clearAnnotations();
  edit_->clearIndicatorRange(0, 0, edit_->lines(), 0, kColumnIndicator);
  diagnosticCount_ = 0;
  const QString name = QFileInfo(path_).fileName();
  for (const Diagnostic& d : diagnostics) {
    if (QFileInfo(QString::fromStdString(d.file)).fileName() != name || d.line < 1) continue;
    const int line = std::min(d.line, edit_->lines()) - 1;
    const bool error = d.severity != "warning";
    edit_->markerAdd(line, error ? kErrorMarker : kWarningMarker);
    const QString previous = edit_->annotation(line);
    edit_->annotate(line,
                    (previous.isEmpty() ? QString() : previous + "\n") +
                        QString::fromStdString(d.severity + ": " + d.message),
                    error ? kErrorNote : kWarningNote);
    if (d.column > 0) {
      const int length = std::max(1, edit_->lineLength(line) - d.column + 1);
      edit_->fillIndicatorRange(line, d.column - 1, line, d.column - 1 + std::min(length, 24),
                                kColumnIndicator);
    }
    if (diagnosticCount_++ == 0) edit_->ensureLineVisible(line);
  }
}

void KernelEditor::showFind() {
  findBar_->show();
  if (edit_->hasSelectedText() && !edit_->selectedText().contains('\n'))
    findEdit_->setText(edit_->selectedText());
  findEdit_->setFocus();
  findEdit_->selectAll();
}

void KernelEditor::find(bool forward) {
  const QString text = findEdit_->text();
  if (text.isEmpty()) return;
  int line = 0, index = 0;
  edit_->getCursorPosition(&line, &index);
  if (!forward && edit_->hasSelectedText()) {
    int fromLine, fromIndex, toLine, toIndex;
    edit_->getSelection(&fromLine, &fromIndex, &toLine, &toIndex);
    line = fromLine;
    index = fromIndex;
  }
  const bool found = edit_->findFirst(text, false, false, false, true, forward, line, index);
  findEdit_->setStyleSheet(found ? QString() : "background: #ffdede;");
}

}  // namespace kwb
