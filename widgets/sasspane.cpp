#include "widgets/sasspane.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTextCursor>
#include <QVBoxLayout>

#include "widgets/sasshighlighter.h"

namespace kwb {

SassPane::SassPane(QWidget* parent)
    : QWidget(parent),
      status_(new QLabel(this)),
      kernels_(new QComboBox(this)),
      counts_(new QLabel(this)),
      listing_(new QPlainTextEdit(this)) {
  status_->setWordWrap(true);
  counts_->setWordWrap(true);
  counts_->setTextFormat(Qt::RichText);
  kernels_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  listing_->setReadOnly(true);
  listing_->setLineWrapMode(QPlainTextEdit::NoWrap);
  listing_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  new SassHighlighter(listing_->document());
  auto* kernelRow = new QHBoxLayout;
  kernelRow->addWidget(new QLabel(tr("Kernel"), this));
  kernelRow->addWidget(kernels_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(status_);
  layout->addLayout(kernelRow);
  layout->addWidget(counts_);
  layout->addWidget(listing_, 1);
  connect(kernels_, &QComboBox::currentIndexChanged, this, &SassPane::showKernel);
  showMessage({});
}

void SassPane::showMessage(const QString& message) {
  report_ = {};
  status_->setText(message);
  kernels_->blockSignals(true);
  kernels_->clear();
  kernels_->blockSignals(false);
  kernels_->setEnabled(false);
  counts_->clear();
  listing_->clear();
}

void SassPane::showReport(const SassReport& report) {
  showMessage({});
  report_ = report;
  QString status =
      tr("%1 SASS, %2")
          .arg(QString::fromStdString(report.arch),
               report.cached ? tr("kept in the history database") : tr("read by cuobjdump"));
  if (!report.notice.empty()) status += ". " + QString::fromStdString(report.notice);
  if (report.kernels.empty())
    status +=
        ". " + tr("One call launches no kernel: a copy engine or a driver call does the work.");
  else if (report.kernels.size() > 1)
    status += ". " +
              tr("One call launches %n kernels.", nullptr, static_cast<int>(report.kernels.size()));
  status_->setText(status);
  kernels_->blockSignals(true);
  for (const auto& kernel : report.kernels) kernels_->addItem(QString::fromStdString(kernel.name));
  kernels_->blockSignals(false);
  kernels_->setEnabled(report.kernels.size() > 1);
  showKernel(report.kernels.empty() ? -1 : 0);
}

void SassPane::showKernel(int index) {
  if (index < 0 || static_cast<std::size_t>(index) >= report_.kernels.size()) return;
  const SassKernel& kernel = report_.kernels[static_cast<std::size_t>(index)];
  const SassSummary summary = summarizeSass(kernel.listing);
  QStringList chips;
  for (SassClass kind : kNotableSassClasses)
    for (const auto& [opcode, n] : summary.notable)
      if (classifySassOpcode(opcode) == kind)
        chips << QString("<span style='color:%1'><b>%2</b>&nbsp;×%3</span>")
                     .arg(sassClassColor(kind).name(), QString::fromStdString(opcode))
                     .arg(n);
  if (chips.isEmpty()) chips << tr("no global, shared, barrier or shuffle instructions");
  counts_->setText(tr("%1 instructions: ").arg(summary.instructions) + chips.join(" &nbsp; "));
  kernels_->setToolTip(QString::fromStdString(kernel.symbol));
  listing_->setPlainText(QString::fromStdString(kernel.listing));
  // The prologue is address arithmetic: open at the first instruction that matters.
  for (QTextBlock block = listing_->document()->begin(); block.isValid(); block = block.next()) {
    if (classifySassOpcode(sassOpcode(block.text().toStdString())) == SassClass::Other) continue;
    listing_->setTextCursor(QTextCursor(block));
    listing_->centerCursor();
    break;
  }
}

QString SassPane::status() const {
  return status_->text();
}

QStringList SassPane::kernelNames() const {
  QStringList names;
  for (int i = 0; i < kernels_->count(); ++i) names << kernels_->itemText(i);
  return names;
}

QString SassPane::counts() const {
  return counts_->text();
}

QString SassPane::listing() const {
  return listing_->toPlainText();
}

}  // namespace kwb
