#include "widgets/explainview.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QTextDocument>
#include <QVBoxLayout>

#include <algorithm>

#include "core/explain.h"
#include "core/format.h"
#include "widgets/workerclient.h"

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
    : QWidget(parent),
      readings_(new QLabel(this)),
      sassButton_(new QPushButton(tr("Compare the machine code's accesses"), this)),
      sass_(new QLabel(this)),
      table_(new QTableWidget(this)) {
  for (QLabel* label : {readings_, sass_}) {
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  }
  sassButton_->setToolTip(
      tr("Reads both runs' SASS (one call of each runs on the GPU, as kwb sass does) and compares "
         "the widths of their global loads and stores"));
  sassButton_->hide();
  connect(sassButton_, &QPushButton::clicked, this, &ExplainView::requestSass);
  table_->setColumnCount(4);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->setVisible(false);
  table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(readings_);
  auto* sass = new QHBoxLayout;
  sass->addWidget(sassButton_);
  sass->addWidget(sass_, 1);
  layout->addLayout(sass);
  layout->addWidget(table_, 1);
  showHint(tr("Select two runs in Results (or run a lesson) to see why they differ."));
}

void ExplainView::setWorker(WorkerClient* worker) {
  worker_ = worker;
  connect(worker_, &WorkerClient::sassReceived, this,
          [this](const QString& id, const SassReport& report) { received(id, &report, {}); });
  connect(worker_, &WorkerClient::jobError, this,
          [this](const QString& id, const QString&, const QString& message, const QString&) {
            received(id, nullptr, message);
          });
  connect(worker_, &WorkerClient::workerLost, this,
          [this](const QString& id, const QString& sentence) { received(id, nullptr, sentence); });
}

void ExplainView::requestSass() {
  if (!worker_ || !kernels_[0] || !kernels_[1]) return;
  sassButton_->setEnabled(false);
  sass_->setText(tr("Reading the machine code: one call of each runs on the GPU..."));
  for (std::size_t i = 0; i < 2; ++i) {
    summaries_[i].reset();
    asked_[i] = worker_->requestSass(*kernels_[i]);
  }
}

void ExplainView::received(const QString& id, const SassReport* report, const QString& error) {
  const auto side = std::find(asked_.begin(), asked_.end(), id);
  if (id.isEmpty() || side == asked_.end()) return;
  const auto i = static_cast<std::size_t>(side - asked_.begin());
  asked_[i].clear();
  if (!report) {
    asked_ = {};
    sassButton_->setEnabled(true);
    sass_->setText(tr("The machine code could not be read: %1").arg(error));
    emit sassRead();
    return;
  }
  std::vector<SassSummary> kernels;
  for (const SassKernel& k : report->kernels) kernels.push_back(summarizeSass(k.listing));
  summaries_[i] = combinedSass(kernels);
  if (!summaries_[0] || !summaries_[1]) return;
  sassButton_->setEnabled(true);
  const auto reading = readSassDifference(*summaries_[0], *summaries_[1]);
  sass_->setText(reading ? QString::fromStdString(*reading)
                         : tr("The same access widths in both: %1")
                               .arg(QString::fromStdString(notableText(*summaries_[0]))));
  emit sassRead();
}

QString ExplainView::sassReading() const {
  return sass_->text();
}

void ExplainView::showHint(const QString& text) {
  kernels_ = {};
  asked_ = {};
  sassButton_->hide();
  sass_->clear();
  readings_->setText("<p>" + text.toHtmlEscaped() + "</p>");
  table_->setRowCount(0);
  table_->setHorizontalHeaderLabels({tr("metric"), tr("before"), tr("after"), tr("ratio")});
}

void ExplainView::setRuns(std::int64_t beforeId, const RunResult& before, std::int64_t afterId,
                          const RunResult& after) {
  kernels_ = {protocol::kernelOf(before), protocol::kernelOf(after)};
  asked_ = {};
  sass_->clear();
  sassButton_->setEnabled(true);
  sassButton_->setVisible(worker_ != nullptr);
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
