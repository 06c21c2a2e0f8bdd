#include "widgets/tunepage.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "core/error.h"
#include "core/format.h"
#include "core/tuneexport.h"
#include "core/tuner.h"
#include "widgets/plotstyle.h"
#include "widgets/workerclient.h"

namespace kwb {
namespace {

QString qstr(const std::string& text) {
  return QString::fromStdString(text);
}

// A first guess at the values to tune a parameter over.
QString guessValues(const ParamSpec& spec) {
  if (spec.kind == ParamKind::Choice) {
    QStringList choices;
    for (const auto& c : spec.choices) choices << qstr(c);
    return choices.join(',');
  }
  const std::int64_t low = std::max<std::int64_t>(spec.min, 1);
  if (spec.max / low >= 8) return QString("%1:%2:*2").arg(low).arg(spec.max);
  return QString("%1:%2").arg(spec.min).arg(spec.max);
}

// "block_size=256 pack_size=4" from a report's tuned values.
QString configuration(const nlohmann::json& params) {
  QStringList parts;
  for (const auto& [name, value] : params.items())
    parts << qstr(name) + "=" + qstr(value.get<std::string>());
  return parts.join(' ');
}

QTableWidgetItem* readOnly(const QString& text) {
  auto* item = new QTableWidgetItem(text);
  item->setFlags(item->flags() & ~Qt::ItemIsEditable);
  return item;
}

}  // namespace

TunePage::TunePage(WorkerClient* worker, QWidget* parent)
    : QWidget(parent),
      worker_(worker),
      space_(new QTableWidget(0, SpaceColumnCount, this)),
      restrictions_(new QLineEdit(this)),
      strategy_(new QComboBox(this)),
      objective_(new QComboBox(this)),
      budget_(new QLineEdit("100", this)),
      pointBudget_(new QDoubleSpinBox(this)),
      startButton_(new QPushButton(tr("Tune"), this)),
      stopButton_(new QPushButton(tr("Stop"), this)),
      applyButton_(new QPushButton(tr("Apply the best"), this)),
      exportButton_(new QPushButton(tr("Export..."), this)),
      status_(new QLabel(this)),
      plot_(new QCustomPlot(this)),
      finalists_(new QTableWidget(0, FinalistColumnCount, this)) {
  space_->setObjectName("tuneSpace");
  space_->setHorizontalHeaderLabels({tr("tune"), tr("parameter"), tr("values")});
  space_->horizontalHeader()->setStretchLastSection(true);
  space_->verticalHeader()->hide();
  restrictions_->setPlaceholderText(tr("block_size * unroll <= 4096; ..."));
  restrictions_->setToolTip(
      tr("Rules every point must keep, over the parameters' values, separated by semicolons"));
  for (const auto kind : allTuneStrategies()) strategy_->addItem(qstr(std::string(toString(kind))));
  strategy_->setCurrentText("annealing");
  for (const char* o : {"time", "bandwidth", "energy", "time,energy"}) objective_->addItem(o);
  budget_->setToolTip(tr("Evaluations (100), or a time (90s, 3m); empty: the whole space"));
  pointBudget_->setRange(0.01, 60);
  pointBudget_->setValue(0.2);
  pointBudget_->setSuffix(" s");
  pointBudget_->setToolTip(tr("Timing time per point"));
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* form = new QFormLayout;
  form->addRow(tr("Restrictions"), restrictions_);
  form->addRow(tr("Strategy"), strategy_);
  form->addRow(tr("Objective"), objective_);
  form->addRow(tr("Budget"), budget_);
  form->addRow(tr("Per point"), pointBudget_);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(startButton_);
  buttons->addWidget(stopButton_);
  buttons->addWidget(applyButton_);
  buttons->addWidget(exportButton_);
  buttons->addStretch();
  auto* left = new QWidget(this);
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->addWidget(space_, 1);
  leftLayout->addLayout(form);
  leftLayout->addLayout(buttons);
  leftLayout->addWidget(status_);

  plot_->setObjectName("tunePlot");
  setUpInteractions(plot_);
  plot_->xAxis->setLabel(tr("evaluation"));
  plot_->yAxis->setLabel(tr("median runtime [us]"));
  plot_->addGraph();  // every evaluated point
  plot_->graph(0)->setName(tr("evaluated"));
  plot_->graph(0)->setLineStyle(QCPGraph::lsNone);
  plot_->graph(0)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
  plot_->graph(0)->setPen(QPen(seriesColour(0)));
  plot_->addGraph();  // the best so far
  plot_->graph(1)->setName(tr("best so far"));
  plot_->graph(1)->setLineStyle(QCPGraph::lsStepLeft);
  plot_->graph(1)->setPen(QPen(seriesColour(1), 2));
  plot_->legend->setVisible(true);
  installReadout(plot_, [](const QString& name, double key, double value) {
    return QString("%1 %2: %3 us").arg(name).arg(key).arg(value, 0, 'f', 2);
  });

  finalists_->setObjectName("tuneFinalists");
  finalists_->setHorizontalHeaderLabels({tr("rank"), tr("configuration"), tr("median"),
                                         tr("95% interval"), tr("against the best"), tr("tied")});
  finalists_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  finalists_->horizontalHeader()->setStretchLastSection(true);
  finalists_->verticalHeader()->hide();
  finalists_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  // The finalists take the whole width below: their configurations are long.
  auto* top = new QSplitter(Qt::Horizontal, this);
  top->addWidget(left);
  top->addWidget(plot_);
  top->setStretchFactor(1, 2);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(top);
  split->addWidget(finalists_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(split);

  connect(startButton_, &QPushButton::clicked, this, &TunePage::start);
  connect(stopButton_, &QPushButton::clicked, this, &TunePage::stop);
  connect(applyButton_, &QPushButton::clicked, this, [this] { emit applyRequested(best_); });
  connect(exportButton_, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the tuning"), "tuned.h",
        tr("C++ header of the best (*.h *.hpp);;The whole result as JSON (*.json)"));
    if (!path.isEmpty()) exportResult(path);
  });
  connect(worker_, &WorkerClient::evaluated, this,
          [this](const QString& id, int number, const nlohmann::json& evaluation) {
            if (id == job_) showEvaluation(number, evaluation);
          });
  connect(worker_, &WorkerClient::tuned, this, [this](const QString& id, const nlohmann::json& r) {
    if (id == job_) showReport(r);
  });
  connect(
      worker_, &WorkerClient::progress, this,
      [this](const QString& id, int done, int total, double, const QString& text) {
        if (id == job_ && total > 0)
          status_->setText(tr("Evaluation %1 of at most %2: %3").arg(done).arg(total).arg(text));
      });
  connect(worker_, &WorkerClient::jobDone, this, [this](const QString& id, int, bool cancelled) {
    if (id != job_) return;
    end(cancelled ? tr("Stopped after %1 evaluations; everything measured is kept in the "
                       "history.")
                        .arg(evaluations_)
                  : status());
  });
  connect(worker_, &WorkerClient::jobError, this,
          [this](const QString& id, const QString&, const QString& message, const QString&) {
            if (id == job_) end(message);
          });
  connect(worker_, &WorkerClient::workerLost, this,
          [this](const QString& id, const QString& sentence) {
            if (id == job_) end(sentence);
          });
  updateButtons();
}

void TunePage::setParams(const std::vector<ParamSpec>& specs) {
  space_->setRowCount(0);
  for (const auto& spec : specs) {
    if (spec.kind == ParamKind::List) continue;
    const int row = space_->rowCount();
    space_->insertRow(row);
    auto* tuned = new QTableWidgetItem;
    tuned->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
    tuned->setCheckState(Qt::Unchecked);
    space_->setItem(row, TuneColumn, tuned);
    auto* name = readOnly(qstr(spec.name));
    name->setToolTip(qstr(spec.meaning + " (" + spec.allowedText() + ")"));
    space_->setItem(row, NameColumn, name);
    space_->setItem(row, ValuesColumn, new QTableWidgetItem(guessValues(spec)));
  }
  space_->resizeColumnsToContents();
  updateButtons();
}

void TunePage::tune(const QString& param, const QString& values) {
  for (int row = 0; row < space_->rowCount(); ++row)
    if (space_->item(row, NameColumn)->text() == param) {
      space_->item(row, TuneColumn)->setCheckState(Qt::Checked);
      space_->item(row, ValuesColumn)->setText(values);
    }
}

void TunePage::setBudget(const QString& budget) {
  budget_->setText(budget);
}

void TunePage::setReady(bool ready) {
  ready_ = ready;
  updateButtons();
}

TuneSettings TunePage::settings() const {
  TuneSettings t;
  for (int row = 0; row < space_->rowCount(); ++row)
    if (space_->item(row, TuneColumn)->checkState() == Qt::Checked)
      t.axes.push_back((space_->item(row, NameColumn)->text() + "=" +
                        space_->item(row, ValuesColumn)->text().trimmed())
                           .toStdString());
  for (const QString& rule : restrictions_->text().split(';', Qt::SkipEmptyParts))
    if (!rule.trimmed().isEmpty()) t.restrictions.push_back(rule.trimmed().toStdString());
  t.strategy = strategy_->currentText().toStdString();
  t.objective = objective_->currentText().toStdString();
  t.searchBudget = budget_->text().trimmed().toStdString();
  return t;
}

QString TunePage::status() const {
  return status_->text();
}

void TunePage::start() {
  if (running() || !kernel_) return;
  const TuneSettings t = settings();
  if (t.axes.empty()) {
    status_->setText(tr("Tick at least one parameter to tune."));
    return;
  }
  MeasureSettings measure;
  measure.budget = pointBudget_->value();
  plot_->graph(0)->data()->clear();
  plot_->graph(1)->data()->clear();
  plot_->replot();
  finalists_->setRowCount(0);
  best_.clear();
  report_ = nlohmann::json();
  evaluations_ = 0;
  status_->setText(tr("Tuning: the space is checked, then the points run..."));
  job_ = worker_->submit(protocol::TuneRequest{kernel_(), t, measure});
  updateButtons();
  emit started();
}

void TunePage::stop() {
  if (running()) worker_->cancel(job_);
}

void TunePage::showEvaluation(int number, const nlohmann::json& evaluation) {
  evaluations_ = number;
  if (evaluation.value("status", "") == "ok")
    plot_->graph(0)->addData(number, evaluation["median_s"].get<double>() * 1e6);
  // The best so far by the objective's score; plotted as that point's runtime.
  const auto& best = evaluation["best_score"];
  if (!best.is_null() && evaluation["score"] == best && evaluation.contains("median_s"))
    plot_->graph(1)->addData(number, evaluation["median_s"].get<double>() * 1e6);
  else if (!plot_->graph(1)->data()->isEmpty())
    plot_->graph(1)->addData(number, (plot_->graph(1)->data()->constEnd() - 1)->value);
  plot_->rescaleAxes();
  padRanges(plot_);
  plot_->replot();
}

bool TunePage::exportResult(const QString& path) {
  std::string text;
  try {
    text =
        path.endsWith(".json", Qt::CaseInsensitive) ? report_.dump(2) + "\n" : tuneHeader(report_);
  } catch (const Error& e) {
    status_->setText(qstr(e.what()));
    return false;
  }
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
      file.write(text.data(), static_cast<qint64>(text.size())) !=
          static_cast<qint64>(text.size())) {
    status_->setText(tr("Could not write %1: %2").arg(path, file.errorString()));
    return false;
  }
  status_->setText(tr("Wrote %1.").arg(path));
  return true;
}

void TunePage::showReport(const nlohmann::json& report) {
  report_ = report;
  const auto& finalists = report["finalists"];
  finalists_->setRowCount(static_cast<int>(finalists.size()));
  best_.clear();
  for (int row = 0; row < static_cast<int>(finalists.size()); ++row) {
    const auto& f = finalists[static_cast<std::size_t>(row)];
    if (row == 0)
      for (const auto& [name, value] : f["params"].items()) best_[name] = value;
    const double median = f.value("median_s", 0.0);
    QString interval = "-";
    if (f.contains("interval_s"))
      interval =
          qstr(formatSeconds(f["interval_s"][0]) + " - " + formatSeconds(f["interval_s"][1]));
    QString verdict = row == 0 ? tr("best") : "-";
    if (f.contains("against_best"))
      verdict = qstr(formatRatio(f["against_best"]["ratio"].get<double>()) + " " +
                     f["against_best"]["verdict"].get<std::string>());
    finalists_->setItem(row, RankColumn, readOnly(QString::number(row + 1)));
    finalists_->setItem(row, ConfigurationColumn, readOnly(configuration(f["params"])));
    finalists_->setItem(row, MedianColumn, readOnly(qstr(formatSeconds(median))));
    finalists_->setItem(row, IntervalColumn, readOnly(interval));
    finalists_->setItem(row, VerdictColumn, readOnly(verdict));
    finalists_->setItem(row, TiedColumn,
                        readOnly(f.value("tied_with_best", false) ? tr("yes") : tr("no")));
  }
  // A stopped tuning measured no finalists: its best evaluation is still the best known.
  if (finalists.empty()) {
    const nlohmann::json* best = nullptr;
    for (const auto& e : report["evaluations"])
      if (e.is_object() && !e.value("score", nlohmann::json()).is_null() &&
          (!best || e["score"].get<double>() < (*best)["score"].get<double>()))
        best = &e;
    if (best)
      for (const auto& [name, value] : (*best)["params"].items()) best_[name] = value;
  }
  int tied = 0;
  for (const auto& f : finalists) tied += f.value("tied_with_best", false);
  const QString space = tr("%1 of %2 points valid")
                            .arg(report["space"]["valid"].get<int>())
                            .arg(report["space"]["points"].get<int>());
  const QString evaluations = tr("%1 evaluations (%2 from the history), %3")
                                  .arg(report["evaluations"].size())
                                  .arg(report.value("cache_hits", 0))
                                  .arg(qstr(report.value("stopped", "")));
  const QString unconfirmed = best_.empty()
                                  ? tr("No configuration ran.")
                                  : tr("Not measured again: Apply takes the best point found.");
  status_->setText(finalists.empty() ? tr("%1; %2. %3").arg(space, evaluations, unconfirmed)
                   : tied > 1 ? tr("%1; %2. %3 configurations cannot be told apart from the best.")
                                    .arg(space, evaluations)
                                    .arg(tied)
                              : tr("%1; %2. The best stands alone.").arg(space, evaluations));
  updateButtons();
}

void TunePage::end(const QString& status) {
  job_.clear();
  if (!status.isEmpty()) status_->setText(status);
  updateButtons();
  emit finished();
}

void TunePage::updateButtons() {
  startButton_->setEnabled(ready_ && !running() && space_->rowCount() > 0);
  stopButton_->setEnabled(running());
  applyButton_->setEnabled(!running() && !best_.empty());
  exportButton_->setEnabled(!running() && report_.contains("finalists") &&
                            !report_["finalists"].empty());
}

}  // namespace kwb
