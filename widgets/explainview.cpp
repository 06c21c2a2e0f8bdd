#include "widgets/explainview.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QTextDocument>
#include <QVBoxLayout>

#include "core/explain.h"
#include "core/format.h"

namespace kwb {
namespace {

QString runName(std::int64_t id, const RunResult& run) {
  if (id > 0) return QString::fromStdString(describeRun(id, run));
  return QString::fromStdString(run.family + "/" + run.variant + " " + run.problem.toText() + " " +
                                run.launch.toText());
}

QString columnName(std::int64_t id, const char* fallback) {
  return id > 0 ? QObject::tr("run %1").arg(id) : QObject::tr(fallback);
}

}  // namespace

ExplainView::ExplainView(QWidget* parent)
    : QWidget(parent), readings_(new QLabel(this)), table_(new QTableWidget(this)) {
  readings_->setWordWrap(true);
  readings_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  table_->setColumnCount(4);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->setVisible(false);
  table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(readings_);
  layout->addWidget(table_, 1);
  showHint(tr("Select two runs in Results (or run a lesson) to see why they differ."));
}

void ExplainView::showHint(const QString& text) {
  readings_->setText("<p>" + text.toHtmlEscaped() + "</p>");
  table_->setRowCount(0);
  table_->setHorizontalHeaderLabels({tr("metric"), tr("before"), tr("after"), tr("ratio")});
}

void ExplainView::setRuns(std::int64_t beforeId, const RunResult& before, std::int64_t afterId,
                          const RunResult& after) {
  QString html = "<p>" + runName(beforeId, before).toHtmlEscaped() + "<br>" +
                 runName(afterId, after).toHtmlEscaped() + "</p><ul>";
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

  table_->setHorizontalHeaderLabels(
      {tr("metric"), columnName(beforeId, "before"), columnName(afterId, "after"), tr("ratio")});
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
}

QString ExplainView::readings() const {
  QTextDocument document;
  document.setHtml(readings_->text());
  return document.toPlainText();
}

}  // namespace kwb
