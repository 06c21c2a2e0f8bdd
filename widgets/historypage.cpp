#include "widgets/historypage.h"

#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include "widgets/compareplot.h"
#include "widgets/historymodel.h"
#include "widgets/historyplot.h"

namespace kwb {
namespace {

// Fills a filter menu, keeping the current choice; the first entry means "any".
void setChoices(QComboBox* box, const QStringList& values) {
  const QString current = box->currentText();
  box->blockSignals(true);
  box->clear();
  box->addItem(QObject::tr("any"));
  box->addItems(values);
  box->setCurrentIndex(std::max(0, box->findText(current)));
  box->blockSignals(false);
}

}  // namespace

HistoryPage::HistoryPage(const QString& databasePath, QWidget* parent)
    : QWidget(parent), model_(new HistoryModel(databasePath, this)) {
  auto* layout = new QVBoxLayout(this);
  auto* filters = new QHBoxLayout;
  family_ = new QComboBox(this);
  variant_ = new QComboBox(this);
  dtype_ = new QComboBox(this);
  for (auto* box : {family_, variant_, dtype_}) {
    box->addItem(tr("any"));
    box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(box, &QComboBox::currentIndexChanged, this, &HistoryPage::applyFilter);
  }
  device_ = new QLineEdit(this);
  device_->setPlaceholderText(tr("device name or UUID"));
  since_ = new QComboBox(this);
  since_->addItem(tr("any time"), 0);
  since_->addItem(tr("last hour"), 3600);
  since_->addItem(tr("last day"), 86400);
  since_->addItem(tr("last week"), 7 * 86400);
  since_->addItem(tr("last 30 days"), 30 * 86400);
  connect(since_, &QComboBox::currentIndexChanged, this, &HistoryPage::applyFilter);
  text_ = new QLineEdit(this);
  text_->setPlaceholderText(tr("text in kernel, parameters, errors, tags, notes"));
  text_->setClearButtonEnabled(true);
  // Typing filters once the text rests, not on every key.
  filterDelay_ = new QTimer(this);
  filterDelay_->setSingleShot(true);
  filterDelay_->setInterval(250);
  connect(filterDelay_, &QTimer::timeout, this, &HistoryPage::applyFilter);
  for (auto* edit : {device_, text_})
    connect(edit, &QLineEdit::textChanged, filterDelay_, qOverload<>(&QTimer::start));
  filters->addWidget(new QLabel(tr("Family"), this));
  filters->addWidget(family_);
  filters->addWidget(new QLabel(tr("Variant"), this));
  filters->addWidget(variant_);
  filters->addWidget(new QLabel(tr("Dtype"), this));
  filters->addWidget(dtype_);
  filters->addWidget(device_, 1);
  filters->addWidget(since_);
  filters->addWidget(text_, 2);
  layout->addLayout(filters);

  auto* splitter = new QSplitter(Qt::Vertical, this);
  table_ = new QTableView(splitter);
  table_->setModel(model_);
  table_->setSortingEnabled(true);
  table_->horizontalHeader()->setSortIndicator(HistoryModel::TimeColumn, Qt::DescendingOrder);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->hide();
  table_->setWordWrap(false);  // one line per run: rows of equal height, quick to lay out
  // Highlighting header sections walks every selected row: 100 000 of them would stall a click.
  table_->verticalHeader()->setHighlightSections(false);
  table_->horizontalHeader()->setHighlightSections(false);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  for (auto [column, width] : {std::pair{HistoryModel::TimeColumn, 140},
                               {HistoryModel::KernelColumn, 170},
                               {HistoryModel::ProblemColumn, 190},
                               {HistoryModel::LaunchColumn, 230},
                               {HistoryModel::DeviceColumn, 170}})
    table_->setColumnWidth(column, width);

  auto* lower = new QWidget(splitter);
  auto* lowerLayout = new QVBoxLayout(lower);
  lowerLayout->setContentsMargins(0, 0, 0, 0);
  auto* actions = new QHBoxLayout;
  const auto button = [&](const QString& text, auto slot, const QString& tip) {
    auto* b = new QPushButton(text, lower);
    b->setToolTip(tip);
    connect(b, &QPushButton::clicked, this, slot);
    actions->addWidget(b);
  };
  button(tr("Plot over time"), &HistoryPage::plotSelection,
         tr("The selected runs' runtime or bandwidth over time, one line per kernel and problem"));
  button(tr("Compare"), &HistoryPage::compareSelection, tr("The selected runs side by side"));
  button(tr("Tag..."), &HistoryPage::tagSelection, tr("Tag the selected runs"));
  button(tr("Note..."), &HistoryPage::annotateSelection, tr("Add a note to the selected runs"));
  button(tr("Export data..."), &HistoryPage::exportSelection,
         tr("The selected runs (all shown when none is selected) as CSV or JSON"));
  button(tr("Delete..."), &HistoryPage::deleteSelection, tr("Delete the selected runs"));
  actions->addStretch();
  metric_ = new QComboBox(lower);
  metric_->addItems({tr("bandwidth"), tr("runtime")});
  connect(metric_, &QComboBox::currentIndexChanged, this, [this](int index) {
    historyPlot_->setMetric(index == 0 ? HistoryPlot::Metric::Bandwidth
                                       : HistoryPlot::Metric::Runtime);
    comparePlot_->setMetric(index == 0 ? ComparePlot::Metric::Bandwidth
                                       : ComparePlot::Metric::Runtime);
  });
  actions->addWidget(new QLabel(tr("Plot"), lower));
  actions->addWidget(metric_);
  count_ = new QLabel(lower);
  actions->addWidget(count_);
  lowerLayout->addLayout(actions);
  charts_ = new QTabWidget(lower);
  historyPlot_ = new HistoryPlot(charts_);
  comparePlot_ = new ComparePlot(charts_);
  charts_->addTab(historyPlot_, tr("Over time"));
  charts_->addTab(comparePlot_, tr("Compare"));
  lowerLayout->addWidget(charts_);
  splitter->setStretchFactor(0, 1);
  splitter->setStretchFactor(1, 1);
  layout->addWidget(splitter);

  connect(
      model_, &HistoryModel::choicesLoaded, this,
      [this](const QStringList& families, const QStringList& variants, const QStringList& dtypes) {
        setChoices(family_, families);
        setChoices(variant_, variants);
        setChoices(dtype_, dtypes);
      });
  connect(model_, &HistoryModel::loadingChanged, this, [this](bool loading) {
    if (loading) count_->setText(tr("loading..."));
  });
  connect(model_, &HistoryModel::loaded, this, [this](int rows, double seconds) {
    count_->setText(tr("%n run(s)", nullptr, rows) +
                    QString(" (%1 ms)").arg(seconds * 1e3, 0, 'f', 0));
  });
  connect(model_, &HistoryModel::failed, this, &HistoryPage::status);
  connect(model_, &HistoryModel::exported, this, [this](const QString& path, int count) {
    emit status(tr("Exported %n run(s) to %1", nullptr, count).arg(path));
  });
}

void HistoryPage::applyFilter() {
  HistoryFilter filter;
  const auto choice = [](QComboBox* box) {
    return box->currentIndex() > 0 ? box->currentText().toStdString() : std::string();
  };
  filter.family = choice(family_);
  filter.variant = choice(variant_);
  filter.dtype = choice(dtype_);
  filter.device = device_->text().trimmed().toStdString();
  filter.text = text_->text().trimmed().toStdString();
  if (const int seconds = since_->currentData().toInt(); seconds > 0)
    filter.since = QDateTime::currentMSecsSinceEpoch() - std::int64_t{seconds} * 1000;
  model_->setFilter(filter);
}

HistorySelection HistoryPage::selection() const {
  // By ranges, not by index: selecting all of 100 000 rows is one range, not 100 000 indexes.
  std::vector<std::pair<int, int>> ranges;
  for (const auto& range : table_->selectionModel()->selection())
    ranges.emplace_back(range.top(), range.bottom());
  std::sort(ranges.begin(), ranges.end());
  HistorySelection selected{model_->snapshot(), {}};
  int next = 0;  // ranges of different columns may overlap: take each row once
  for (auto [top, bottom] : ranges) {
    for (int r = std::max(top, next); r <= bottom; ++r) selected.rows.push_back(&model_->row(r));
    next = std::max(next, bottom + 1);
  }
  return selected;
}

QList<qint64> HistoryPage::selectedIds(bool allWhenNone) const {
  QList<qint64> ids;
  for (const HistoryRow* row : selection().rows) ids << row->id;
  if (ids.isEmpty() && allWhenNone)
    for (const auto& row : *model_->snapshot()) ids << row.id;
  return ids;
}

QCustomPlot* HistoryPage::currentChart() const {
  return charts_->currentWidget() == historyPlot_ ? historyPlot_->plot() : comparePlot_->plot();
}

void HistoryPage::plotSelection() {
  historyPlot_->setRows(selection());
  charts_->setCurrentWidget(historyPlot_);
  emit plotted();
}

void HistoryPage::compareSelection() {
  comparePlot_->setRows(selection());
  charts_->setCurrentWidget(comparePlot_);
  emit plotted();
}

void HistoryPage::plotMatching(const QString& text) {
  auto once = std::make_shared<QMetaObject::Connection>();
  *once = connect(model_, &HistoryModel::loaded, this, [this, once] {
    disconnect(*once);
    table_->selectAll();
    plotSelection();
  });
  text_->setText(text);
  filterDelay_->stop();
  applyFilter();
}

void HistoryPage::tagSelection() {
  const auto ids = selectedIds(false);
  if (ids.isEmpty()) return emit status(tr("Select the runs to tag first."));
  bool ok = false;
  const QString tag = QInputDialog::getText(this, tr("Tag runs"),
                                            tr("Tag for %n run(s):", nullptr, int(ids.size())),
                                            QLineEdit::Normal, {}, &ok)
                          .trimmed();
  if (ok && !tag.isEmpty()) model_->addTag(ids, tag);
}

void HistoryPage::annotateSelection() {
  const auto ids = selectedIds(false);
  if (ids.isEmpty()) return emit status(tr("Select the runs to annotate first."));
  bool ok = false;
  const QString note = QInputDialog::getMultiLineText(
      this, tr("Note"), tr("Note for %n run(s):", nullptr, int(ids.size())), {}, &ok);
  if (ok && !note.trimmed().isEmpty()) model_->addNote(ids, note.trimmed());
}

void HistoryPage::deleteSelection() {
  const auto ids = selectedIds(false);
  if (ids.isEmpty()) return emit status(tr("Select the runs to delete first."));
  const auto answer = QMessageBox::question(
      this, tr("Delete runs"),
      tr("Delete %n run(s) with their samples, tags and notes? This cannot be undone.", nullptr,
         int(ids.size())),
      QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
  if (answer == QMessageBox::Yes) model_->deleteRuns(ids);
}

void HistoryPage::exportSelection() {
  const auto ids = selectedIds(true);
  if (ids.isEmpty()) return emit status(tr("No runs to export."));
  QString filter;
  const QString path = QFileDialog::getSaveFileName(this, tr("Export runs"), "runs.csv",
                                                    tr("CSV (*.csv);;JSON (*.json)"), &filter);
  if (path.isEmpty()) return;
  model_->exportRuns(ids, path, path.endsWith(".json", Qt::CaseInsensitive) ? 1 : 0);
}

}  // namespace kwb
