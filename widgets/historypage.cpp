#include "widgets/historypage.h"

#include <QComboBox>
#include <QDateTime>
#include <QDialog>
#include <QFileDialog>
#include <QHeaderView>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include "core/error.h"
#include "db/baselinestore.h"
#include "ui_historypage.h"
#include "widgets/codedialog.h"
#include "widgets/compareplot.h"
#include "widgets/explaindialog.h"
#include "widgets/historymodel.h"
#include "widgets/historyplot.h"
#include "widgets/qualitypanel.h"

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
    : QWidget(parent),
      ui_(std::make_unique<Ui::HistoryPage>()),
      model_(new HistoryModel(databasePath, this)),
      databasePath_(databasePath) {
  ui_->setupUi(this);
  for (auto* box : {ui_->familyFilter, ui_->variantFilter, ui_->dtypeFilter})
    connect(box, &QComboBox::currentIndexChanged, this, &HistoryPage::applyFilter);
  const int windows[] = {0, 3600, 86400, 7 * 86400, 30 * 86400};  // the window of each entry
  for (int i = 0; i < ui_->sinceFilter->count(); ++i) ui_->sinceFilter->setItemData(i, windows[i]);
  connect(ui_->sinceFilter, &QComboBox::currentIndexChanged, this, &HistoryPage::applyFilter);
  // Typing filters once the text rests, not on every key.
  filterDelay_ = new QTimer(this);
  filterDelay_->setSingleShot(true);
  filterDelay_->setInterval(250);
  connect(filterDelay_, &QTimer::timeout, this, &HistoryPage::applyFilter);
  for (auto* edit : {ui_->deviceFilter, ui_->textFilter}) {
    edit->setMaxLength(static_cast<int>(kLongestFilterText));
    connect(edit, &QLineEdit::textChanged, filterDelay_, qOverload<>(&QTimer::start));
    connect(edit, &QLineEdit::returnPressed, this, [this] {
      filterDelay_->stop();
      applyFilter();
    });
  }

  QTableView* table = ui_->runTable;
  table->setModel(model_);
  table->horizontalHeader()->setSortIndicator(HistoryModel::TimeColumn, Qt::DescendingOrder);
  // The header paints whether each column is wholly selected, which Qt finds by asking every
  // row: 80 ms after selecting all of a million. It highlights nothing, so it sees no selection.
  table->horizontalHeader()->setSelectionModel(new QItemSelectionModel(model_, table));
  // Header highlighting is off in the .ui: it walks every selected row, and 100 000 of them
  // would stall a click.
  for (auto [column, width] : {std::pair{HistoryModel::TimeColumn, 165},
                               {HistoryModel::KernelColumn, 170},
                               {HistoryModel::ProblemColumn, 190},
                               {HistoryModel::LaunchColumn, 230},
                               {HistoryModel::DeviceColumn, 170}})
    table->setColumnWidth(column, width);

  connect(ui_->plotButton, &QPushButton::clicked, this, &HistoryPage::plotSelection);
  connect(ui_->compareButton, &QPushButton::clicked, this, &HistoryPage::compareSelection);
  connect(ui_->tagButton, &QPushButton::clicked, this, &HistoryPage::tagSelection);
  connect(ui_->noteButton, &QPushButton::clicked, this, &HistoryPage::annotateSelection);
  connect(ui_->codeButton, &QPushButton::clicked, this, &HistoryPage::showCode);
  connect(ui_->baselineButton, &QPushButton::clicked, this, &HistoryPage::markBaseline);
  connect(ui_->qualityButton, &QPushButton::clicked, this, &HistoryPage::showQuality);
  connect(ui_->explainButton, &QPushButton::clicked, this, &HistoryPage::explainSelection);
  connect(ui_->exportButton, &QPushButton::clicked, this, &HistoryPage::exportSelection);
  connect(ui_->deleteButton, &QPushButton::clicked, this, &HistoryPage::deleteSelection);
  connect(ui_->metricChoice, &QComboBox::currentIndexChanged, this, [this](int index) {
    const ChartMetric metric = index == 0 ? ChartMetric::Bandwidth : ChartMetric::Runtime;
    historyPlot_->setMetric(metric);
    comparePlot_->setMetric(metric);
  });
  historyPlot_ = new HistoryPlot(ui_->chartTabs);
  comparePlot_ = new ComparePlot(ui_->chartTabs);
  ui_->chartTabs->addTab(historyPlot_, tr("Over time"));
  ui_->chartTabs->addTab(comparePlot_, tr("Compare"));

  connect(
      model_, &HistoryModel::choicesLoaded, this,
      [this](const QStringList& families, const QStringList& variants, const QStringList& dtypes) {
        setChoices(ui_->familyFilter, families);
        setChoices(ui_->variantFilter, variants);
        setChoices(ui_->dtypeFilter, dtypes);
      });
  connect(model_, &HistoryModel::loadingChanged, this, [this](bool loading) {
    if (loading) ui_->countLabel->setText(tr("loading..."));
  });
  connect(model_, &HistoryModel::loaded, this, [this](int rows, double seconds) {
    ui_->countLabel->setText(tr("%n run(s)", nullptr, rows) +
                             QString(" (%1 ms)").arg(seconds * 1e3, 0, 'f', 0));
  });
  connect(model_, &HistoryModel::seriesLoaded, this, [this](const HistorySeriesSet& series) {
    historyPlot_->setSeries(series);
    ui_->chartTabs->setCurrentWidget(historyPlot_);
    emit plotted();
  });
  connect(model_, &HistoryModel::comparisonLoaded, this,
          [this](const HistoryComparison& comparison) {
            comparePlot_->setRows(comparison.points, comparison.judged);
            ui_->chartTabs->setCurrentWidget(comparePlot_);
            emit plotted();
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
  filter.family = choice(ui_->familyFilter);
  filter.variant = choice(ui_->variantFilter);
  filter.dtype = choice(ui_->dtypeFilter);
  filter.device = ui_->deviceFilter->text().trimmed().toStdString();
  filter.text = ui_->textFilter->text().trimmed().toStdString();
  if (const int seconds = ui_->sinceFilter->currentData().toInt(); seconds > 0)
    filter.since = QDateTime::currentMSecsSinceEpoch() - std::int64_t{seconds} * 1000;
  model_->setFilter(filter);
}

std::vector<std::int64_t> HistoryPage::selection() const {
  // By ranges, not by index: selecting all of a million rows is one range, not a million indexes.
  std::vector<std::pair<int, int>> ranges;
  for (const auto& range : ui_->runTable->selectionModel()->selection())
    ranges.emplace_back(range.top(), range.bottom());
  std::sort(ranges.begin(), ranges.end());
  const auto& ids = model_->ids();
  std::vector<std::int64_t> selected;
  int next = 0;  // ranges of different columns may overlap: take each row once
  for (auto [top, bottom] : ranges) {
    const int first = std::max(top, next);
    if (first <= bottom)
      selected.insert(selected.end(), ids.begin() + first, ids.begin() + bottom + 1);
    next = std::max(next, bottom + 1);
  }
  return selected;
}

QList<qint64> HistoryPage::selectedIds(bool allWhenNone) const {
  std::vector<std::int64_t> ids = selection();
  if (ids.empty() && allWhenNone) ids = model_->ids();
  return QList<qint64>(ids.begin(), ids.end());
}

HistoryPage::~HistoryPage() = default;

QTableView* HistoryPage::table() const {
  return ui_->runTable;
}

QCustomPlot* HistoryPage::currentChart() const {
  return ui_->chartTabs->currentWidget() == historyPlot_ ? historyPlot_->plot()
                                                         : comparePlot_->plot();
}

void HistoryPage::plotSelection() {
  std::vector<std::int64_t> ids = selection();
  // Reading them takes a second or more; the window goes on meanwhile.
  if (ids.size() >= 100'000)
    emit status(tr("Reading %n runs to plot...", nullptr, static_cast<int>(ids.size())));
  model_->requestSeries(std::move(ids));
}

void HistoryPage::compareSelection() {
  model_->requestComparison(selection());
}

void HistoryPage::plotMatching(const QString& text, bool compare) {
  auto once = std::make_shared<QMetaObject::Connection>();
  *once = connect(model_, &HistoryModel::loaded, this, [this, once, compare] {
    disconnect(*once);
    ui_->runTable->selectAll();
    compare ? compareSelection() : plotSelection();
  });
  ui_->textFilter->setText(text);
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

void HistoryPage::showCode() {
  const auto ids = selectedIds(false);
  if (ids.isEmpty() || ids.size() > 2)
    return emit status(tr("Select one run of a kernel file for its code, or two to compare."));
  try {
    auto* dialog = new CodeDialog(databasePath_, ids, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
  } catch (const Error& e) {
    emit status(QString::fromStdString(e.what()));
  }
}

void HistoryPage::explainSelection() {
  const auto ids = selectedIds(false);
  if (ids.size() != 2) return emit status(tr("Select the two runs to explain."));
  try {
    RunStore store(databasePath_.toStdString());
    // The older run first: the change is what came after it.
    auto before = store.run(std::min(ids[0], ids[1])), after = store.run(std::max(ids[0], ids[1]));
    if (!before || !after) return emit status(tr("One of the runs is no longer in the history."));
    auto* dialog = new ExplainDialog(before->id, before->result, after->id, after->result, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
  } catch (const Error& e) {
    emit status(QString::fromStdString(e.what()));
  }
}

void HistoryPage::showQuality() {
  const auto ids = selectedIds(false);
  if (ids.size() != 1) return emit status(tr("Select the one run to judge."));
  try {
    const auto record = RunStore(databasePath_.toStdString()).run(ids.front());
    if (!record || record->result.stats.count == 0)
      return emit status(tr("Run %1 has no timing to judge.").arg(ids.front()));
    auto* dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName("qualityDialog");
    dialog->setWindowTitle(tr("Run %1: measurement quality").arg(ids.front()));
    auto* panel = new QualityPanel(dialog);
    panel->setRun(&record->result,
                  againstBaselineSentence(databasePath_, ids.front(), record->result));
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(panel);
    dialog->resize(520, 320);
    dialog->show();
  } catch (const Error& e) {
    emit status(QString::fromStdString(e.what()));
  }
}

void HistoryPage::markBaseline() {
  const auto ids = selectedIds(false);
  if (ids.size() != 1) return emit status(tr("Select the one run to mark as a baseline."));
  try {
    RunStore store(databasePath_.toStdString());
    // A kernel file's run: the user picks whether later versions of the file count too (what a
    // tuning session edits) or only this one.
    const auto record = store.run(ids.front());
    bool sameSource = false;
    if (record && record->result.code) {
      const auto answer =
          askSourceVersion_
              ? askSourceVersion_()
              : QMessageBox::question(this, tr("Baseline of a kernel file"),
                                      tr("Judge only runs of this version of %1 against it? No: "
                                         "every later version of the file is judged against it.")
                                          .arg(QString::fromStdString(record->result.code->file)),
                                      QMessageBox::Yes | QMessageBox::No | QMessageBox::Cancel,
                                      QMessageBox::No);
      if (answer == QMessageBox::Cancel) return;
      sameSource = answer == QMessageBox::Yes;
    }
    BaselineStore(store.database()).mark(ids.front(), sameSource);
    emit status(tr("Run %1 is the baseline of its configuration; later runs of it show their "
                   "verdict against it (Results view, kwb run, kwb history --regressions).")
                    .arg(ids.front()));
  } catch (const Error& e) {
    emit status(QString::fromStdString(e.what()));
  }
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
  model_->exportRuns(
      ids, path,
      path.endsWith(".json", Qt::CaseInsensitive) ? ExportFormat::Json : ExportFormat::Csv);
}

}  // namespace kwb
