#include "widgets/sourceview.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>

#include "widgets/cudahighlighter.h"
#include "widgets/kernelsources.h"

namespace kwb {

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
  const QStringList paths = kernelSourceFiles(family, variant);
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
}

QString SourceView::currentFile() const {
  return files_->currentText();
}

QString SourceView::text() const {
  return editor_->toPlainText();
}

}  // namespace kwb
