#include "widgets/explaindialog.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QTextDocument>
#include <QVBoxLayout>

#include "core/explain.h"
#include "core/format.h"

namespace kwb {
ExplainDialog::ExplainDialog(std::int64_t beforeId, const RunResult& before, std::int64_t afterId,
                             const RunResult& after, QWidget* parent)
    : QDialog(parent), readings_(new QLabel(this)), table_(new QTableWidget(this)) {
  setObjectName("explainDialog");
  setWindowTitle(tr("Why run %1 differs from run %2").arg(afterId).arg(beforeId));
  QString html = "<p>" + QString::fromStdString(describeRun(beforeId, before)).toHtmlEscaped() +
                 "<br>" + QString::fromStdString(describeRun(afterId, after)).toHtmlEscaped() +
                 "</p><ul>";
  for (const auto& reading : readDifference(before, after))
    html += "<li>" + QString::fromStdString(reading).toHtmlEscaped() + "</li>";
  html += "</ul>";
  const auto changes = metricChanges(before, after);
  if (changes.empty())
    html += "<p>" +
            tr("No hardware metrics read by both runs: run them with Hardware metrics set (all "
               "reads every set).") +
            "</p>";
  readings_->setText(html);
  readings_->setWordWrap(true);
  readings_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  table_->setColumnCount(4);
  table_->setHorizontalHeaderLabels(
      {tr("metric"), tr("run %1").arg(beforeId), tr("run %1").arg(afterId), tr("ratio")});
  table_->setRowCount(static_cast<int>(changes.size()));
  for (int row = 0; row < table_->rowCount(); ++row) {
    const MetricChange& c = changes[static_cast<std::size_t>(row)];
    const QString cells[] = {QString::fromStdString(c.name),
                             QString::fromStdString(formatMetricValue(c.before, c.unit)),
                             QString::fromStdString(formatMetricValue(c.after, c.unit)),
                             QString::fromStdString(ratioText(c))};
    for (int column = 0; column < 4; ++column) {
      auto* item = new QTableWidgetItem(cells[column]);
      if (column > 0) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      table_->setItem(row, column, item);
    }
  }
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->setVisible(false);
  table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(readings_);
  layout->addWidget(table_, 1);
  resize(900, 600);
}

QString ExplainDialog::readings() const {
  QTextDocument document;
  document.setHtml(readings_->text());
  return document.toPlainText();
}

}  // namespace kwb
