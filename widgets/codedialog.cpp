#include "widgets/codedialog.h"

#include <Qsci/qscilexerdiff.h>
#include <Qsci/qsciscintilla.h>
#include <QDialogButtonBox>
#include <QLabel>
#include <QVBoxLayout>

#include "core/linediff.h"
#include "db/runstore.h"
#include "widgets/cudalexer.h"

namespace kwb {

CodeDialog::CodeDialog(const QString& databasePath, const QList<qint64>& runs, QWidget* parent)
    : QDialog(parent), view_(new QsciScintilla(this)) {
  RunStore store(databasePath.toStdString());
  const KernelCode first = store.kernelCode(runs.value(0));
  QString heading, text;
  if (runs.size() < 2) {
    heading = tr("Run %1: %2 (sha256 %3)")
                  .arg(runs.value(0))
                  .arg(QString::fromStdString(first.file), QString::fromStdString(first.hash));
    text = QString::fromStdString(first.source);
    view_->setLexer(new CudaLexer(view_));
  } else {
    const KernelCode second = store.kernelCode(runs[1]);
    const std::string diff = unifiedDiff(first.source, second.source,
                                         "run " + std::to_string(runs[0]) + " " + first.file,
                                         "run " + std::to_string(runs[1]) + " " + second.file);
    heading = diff.empty()
                  ? tr("Runs %1 and %2 ran the same code (sha256 %3).")
                        .arg(runs[0])
                        .arg(runs[1])
                        .arg(QString::fromStdString(first.hash))
                  : tr("How the code of run %2 differs from run %1's").arg(runs[0]).arg(runs[1]);
    text = QString::fromStdString(diff.empty() ? first.source : diff);
    auto* lexer = diff.empty() ? static_cast<QsciLexer*>(new CudaLexer(view_))
                               : static_cast<QsciLexer*>(new QsciLexerDiff(view_));
    view_->setLexer(lexer);
  }
  setWindowTitle(tr("Code of a run"));
  view_->setText(text);
  view_->setReadOnly(true);
  view_->setMarginType(0, QsciScintilla::NumberMargin);
  view_->setMarginLineNumbers(0, true);
  view_->setMarginWidth(0, "00000");
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  auto* label = new QLabel(heading, this);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(label);
  layout->addWidget(view_, 1);
  layout->addWidget(buttons);
  resize(900, 700);
}

QString CodeDialog::text() const {
  return view_->text();
}

}  // namespace kwb
