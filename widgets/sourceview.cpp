#include "widgets/sourceview.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextBlock>
#include <QVBoxLayout>

#include "widgets/cudahighlighter.h"
#include "widgets/kernelsources.h"

namespace kwb {
namespace {

// The line where the definition holding `entry` begins, with the comment and template lines
// right above it; 0 where no line outside comments holds it.
int entryLine(const QTextDocument& document, const QString& entry) {
  if (entry.isEmpty()) return 0;
  for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
    const QString text = block.text().trimmed();
    if (text.startsWith("//") || !text.contains(entry)) continue;
    QTextBlock top = block;
    for (QTextBlock up = block.previous(); up.isValid(); up = up.previous()) {
      const QString above = up.text().trimmed();
      if (!above.startsWith("//") && !above.startsWith("template") &&
          !above.startsWith("__global__"))
        break;
      top = up;
    }
    return top.blockNumber();
  }
  return 0;
}

}  // namespace

SourceView::SourceView(QWidget* parent)
    : QWidget(parent),
      files_(new QComboBox(this)),
      note_(new QLabel(this)),
      editor_(new QPlainTextEdit(this)) {
  editor_->setReadOnly(true);
  editor_->setLineWrapMode(QPlainTextEdit::NoWrap);
  editor_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  new CudaHighlighter(editor_->document());
  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("File"), this));
  top->addWidget(files_, 1);
  top->addWidget(note_, 2);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(editor_, 1);
  connect(files_, &QComboBox::currentIndexChanged, this, &SourceView::showFile);
  setVariant({}, {});
}

void SourceView::setVariant(const std::string& family, const std::string& variant) {
  const KernelSources sources = kernelSources(family, variant);
  const QStringList& paths = sources.files;
  entry_ = sources.entry;
  files_->blockSignals(true);
  files_->clear();
  for (const QString& path : paths) files_->addItem(path.mid(QString(":/kernels/").size()), path);
  files_->blockSignals(false);
  if (paths.isEmpty()) {
    note_->setText(family.empty() ? tr("Pick a variant to read its source.")
                                  : tr("No source built in for this variant."));
    editor_->clear();
    return;
  }
  note_->setText(tr("kernels/ in the repository; the first file holds the kernel"));
  showFile(0);
}

void SourceView::showFile(int index) {
  if (index < 0) return;
  editor_->setPlainText(kernelSource(files_->itemData(index).toString()));
  // Variants share files: the first opens at the variant's own kernel, the others at the top.
  const int line = index == 0 ? entryLine(*editor_->document(), entry_) : 0;
  editor_->setTextCursor(QTextCursor(editor_->document()->findBlockByNumber(line)));
  editor_->verticalScrollBar()->setValue(line);
}

QString SourceView::currentFile() const {
  return files_->currentText();
}

QString SourceView::text() const {
  return editor_->toPlainText();
}

int SourceView::topLine() const {
  return editor_->verticalScrollBar()->value();
}

}  // namespace kwb
