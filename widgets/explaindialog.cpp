#include "widgets/explaindialog.h"

#include <QVBoxLayout>

#include "widgets/explainview.h"

namespace kwb {

ExplainDialog::ExplainDialog(std::int64_t beforeId, const RunResult& before, std::int64_t afterId,
                             const RunResult& after, QWidget* parent)
    : QDialog(parent), view_(new ExplainView(this)) {
  setObjectName("explainDialog");
  setWindowTitle(tr("Why run %1 differs from run %2").arg(afterId).arg(beforeId));
  view_->setRuns(beforeId, before, afterId, after);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(view_);
  resize(900, 600);
}

}  // namespace kwb
