#include "widgets/resultspage.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "widgets/qualitypanel.h"
#include "widgets/resultsmodel.h"
#include "widgets/runmetricsmodel.h"

namespace kwb {

ResultsPage::ResultsPage(ResultsModel* results, QString databasePath, QWidget* parent)
    : QWidget(parent),
      results_(results),
      metrics_(new RunMetricsModel(this)),
      quality_(new QualityPanel),
      databasePath_(std::move(databasePath)) {
  table_ = new QTableView;
  table_->setModel(results_);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->verticalHeader()->hide();
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);

  auto* lower = new QWidget;
  auto* lowerLayout = new QVBoxLayout(lower);
  lowerLayout->setContentsMargins(0, 0, 0, 0);
  metricsTitle_ = new QLabel;
  metricsTitle_->setWordWrap(true);
  metricsTitle_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  metricsView_ = new QTableView;
  metricsView_->setModel(metrics_);
  metricsView_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  metricsView_->verticalHeader()->hide();
  metricsView_->verticalHeader()->setDefaultSectionSize(metricsView_->fontMetrics().height() + 8);
  lowerLayout->addWidget(metricsTitle_);
  auto* beside = new QHBoxLayout;
  beside->addWidget(metricsView_, 3);
  beside->addWidget(quality_, 2);
  lowerLayout->addLayout(beside);

  auto* splitter = new QSplitter(Qt::Vertical);
  splitter->addWidget(table_);
  splitter->addWidget(lower);
  splitter->setStretchFactor(0, 1);
  splitter->setStretchFactor(1, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(splitter);

  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) { showRun(current.row()); });
  // Until a row is picked, the newest run's metrics are shown as they arrive.
  connect(results_, &QAbstractItemModel::rowsInserted, this,
          [this](const QModelIndex&, int, int last) {
            if (!table_->selectionModel()->hasSelection()) showRun(last);
          });
  connect(results_, &QAbstractItemModel::modelReset, this, [this] { showRun(-1); });
  showRun(-1);
}

void ResultsPage::showRun(int row) {
  if (row < 0 || row >= static_cast<int>(results_->runs().size())) {
    metrics_->setRun({});
    quality_->setRun(nullptr);
    metricsTitle_->setText(
        tr("<b>Metrics</b> of the selected run appear here. Pick hardware "
           "counter sets under Measurement before running."));
    return;
  }
  const RunResult& run = results_->runs()[static_cast<std::size_t>(row)];
  metrics_->setRun(run);
  quality_->setRun(&run, againstBaselineSentence(databasePath_, results_->runId(row), run));
  QString title = tr("<b>Metrics of run %1</b>").arg(row + 1);
  if (const QStringList kernels = metrics_->kernels(); !kernels.isEmpty())
    title += tr(" &nbsp; kernel%1: %2")
                 .arg(kernels.size() > 1 ? "s" : "", kernels.join(", ").toHtmlEscaped());
  if (!run.throttledSamples.empty())
    title += tr(" &nbsp; %1 of %2 samples were taken while the GPU held its clocks down")
                 .arg(run.throttledSamples.size())
                 .arg(run.samples.size());
  if (!run.notice.empty()) title += "<br>" + QString::fromStdString(run.notice).toHtmlEscaped();
  metricsTitle_->setText(title);
}

}  // namespace kwb
