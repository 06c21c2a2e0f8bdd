#include "widgets/lessonpage.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>

#include "core/error.h"
#include "core/format.h"
#include "core/lessonoutcome.h"
#include "widgets/explainview.h"
#include "widgets/rooflineplot.h"
#include "widgets/wavesplot.h"

namespace kwb {

QString lessonVerdict(const Lesson& lesson, double predicted, std::span<const RunResult> runs) {
  LessonOutcome o;
  try {
    o = lessonOutcome(lesson, runs, predicted);
  } catch (const Error& e) {
    QString sentence = QString::fromStdString(e.what());
    if (!sentence.isEmpty()) sentence[0] = sentence[0].toUpper();
    return sentence.toHtmlEscaped() + ".";
  }
  const RunResult& step = runs.back();
  const auto q = [](const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); };
  if (o.exercise)
    return QObject::tr(
               "Baseline %1: %2. Yours: %3. Built in, %4: %5.<br><b>Your speed-up %6x</b>, you "
               "predicted %7x (off by %8x); the built-in step's: %9x.")
               .arg(q(runs.front().variant), q(formatSeconds(runs.front().stats.median)),
                    q(formatSeconds(runs[1].stats.median)), q(step.variant),
                    q(formatSeconds(step.stats.median)))
               .arg(o.measured, 0, 'g', 3)
               .arg(*o.predicted, 0, 'g', 3)
               .arg(*o.offBy, 0, 'g', 3)
               .arg(o.stepMeasured, 0, 'g', 3) +
           QObject::tr("<br>Why, %1: %2 &rarr; %3 (yours), %4 (built in).")
               .arg(q(o.explains), q(o.before), q(o.after), q(o.stepAfter));
  if (o.hasBaseline)
    return QObject::tr(
               "Baseline %1: %2. This step: %3.<br><b>Measured speed-up %4x</b>, you "
               "predicted %5x (off by %6x).<br>Why, %7: %8 &rarr; %9.")
        .arg(q(runs.front().variant), q(formatSeconds(runs.front().stats.median)),
             q(formatSeconds(step.stats.median)))
        .arg(o.measured, 0, 'g', 3)
        .arg(*o.predicted, 0, 'g', 3)
        .arg(*o.offBy, 0, 'g', 3)
        .arg(q(o.explains), q(o.before), q(o.after));
  return QObject::tr("<b>Measured %1</b>, you predicted %2 us (off by %3x).<br>Why, %4: %5.")
      .arg(q(formatSeconds(o.measured)))
      .arg(predicted, 0, 'g', 3)
      .arg(*o.offBy, 0, 'g', 3)
      .arg(q(o.explains), q(o.after));
}

LessonPage::LessonPage(QWidget* parent)
    : QWidget(parent),
      lessons_(new QComboBox(this)),
      title_(new QLabel(this)),
      explanation_(new QLabel(this)),
      question_(new QLabel(this)),
      prediction_(new QDoubleSpinBox(this)),
      unit_(new QLabel(this)),
      run_(new QPushButton(tr("Run baseline and step"), this)),
      sass_(new QPushButton(tr("Compare machine code"), this)),
      start_(new QPushButton(tr("Open the starting file"), this)),
      commands_(new QLabel(this)),
      verdict_(new QLabel(this)),
      whyTitle_(new QLabel(this)),
      why_(new QStackedWidget(this)),
      roofline_(new RooflinePlot(why_)),
      waves_(new WavesPlot(why_)),
      explain_(new ExplainView(why_)) {
  for (const auto& lesson : lessons())
    lessons_->addItem(QString::fromStdString(lesson.track + " " + std::to_string(lesson.step) +
                                             ": " + lesson.title),
                      QString::fromStdString(lesson.id));
  for (QLabel* label : {explanation_, question_, commands_, verdict_, whyTitle_})
    label->setWordWrap(true);
  for (QWidget* view : {static_cast<QWidget*>(roofline_), static_cast<QWidget*>(waves_),
                        static_cast<QWidget*>(explain_)})
    why_->addWidget(view);
  QFont bigger = title_->font();
  bigger.setPointSizeF(bigger.pointSizeF() * 1.3);
  bigger.setBold(true);
  title_->setFont(bigger);
  commands_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  prediction_->setDecimals(2);
  prediction_->setRange(0.01, 1e7);
  prediction_->setValue(1.0);
  auto* predict = new QHBoxLayout;
  predict->addWidget(new QLabel(tr("Your prediction"), this));
  predict->addWidget(prediction_);
  predict->addWidget(unit_);
  predict->addWidget(run_);
  predict->addWidget(sass_);
  predict->addWidget(start_);
  predict->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(lessons_);
  layout->addWidget(title_);
  layout->addWidget(explanation_);
  layout->addWidget(question_);
  layout->addLayout(predict);
  layout->addWidget(commands_);
  layout->addWidget(verdict_);
  layout->addWidget(whyTitle_);
  layout->addWidget(why_, 1);
  layout->addStretch(1);  // keeps the text at the top while no view shows
  connect(lessons_, &QComboBox::currentIndexChanged, this, &LessonPage::showLesson);
  connect(run_, &QPushButton::clicked, this, [this] { emit runRequested(current()); });
  connect(sass_, &QPushButton::clicked, this, [this] { emit sassRequested(current()); });
  connect(start_, &QPushButton::clicked, this, [this] { emit exerciseRequested(current()); });
  showLesson(0);
}

const Lesson& LessonPage::current() const {
  return *findLesson(lessons_->currentData().toString().toStdString());
}

void LessonPage::selectLesson(const QString& id) {
  const int index = lessons_->findData(id);
  if (index >= 0) lessons_->setCurrentIndex(index);
}

void LessonPage::setPrediction(double value) {
  prediction_->setValue(value);
}

void LessonPage::setBusy(bool busy) {
  run_->setEnabled(!busy);
  if (busy) verdict_->setText(tr("Running..."));
}

void LessonPage::showLesson(int index) {
  if (index < 0) return;
  const Lesson& l = current();
  title_->setText(QString::fromStdString(l.title));
  explanation_->setText(QString::fromStdString(l.explanation));
  question_->setText("<b>" + tr("Before running:") + "</b> " +
                     QString::fromStdString(l.question).toHtmlEscaped());
  unit_->setText(l.baseline ? tr("x faster") : tr("us"));
  const bool exercise = !l.exercise.empty();
  start_->setVisible(exercise);
  run_->setText(exercise ? tr("Run baseline, yours and step") : tr("Run baseline and step"));
  QString commands;
  if (l.baseline)
    commands = tr("Baseline: %1<br>").arg(QString::fromStdString(commandLine(*l.baseline)));
  if (exercise)
    commands += tr("Yours: the starting file, completed (kwb lesson %1 --start FILE.cu)<br>")
                    .arg(QString::fromStdString(l.id));
  commands +=
      tr("This step: %1<br>The metric that shows why: %2")
          .arg(QString::fromStdString(commandLine(l.run)), QString::fromStdString(l.explains));
  commands_->setText(commands);
  verdict_->clear();
  showWhy(false);
}

void LessonPage::showWhy(bool shown) {
  whyTitle_->setVisible(shown);
  why_->setVisible(shown);
  auto* box = static_cast<QBoxLayout*>(layout());
  box->setStretch(box->count() - 1, shown ? 0 : 1);
}

void LessonPage::setDevice(int smCount, std::vector<DeviceCeiling> ceilings) {
  smCount_ = smCount;
  roofline_->setCeilings(std::move(ceilings));
}

QWidget* LessonPage::shownView() const {
  return why_->isHidden() ? nullptr : why_->currentWidget();
}

void LessonPage::showOutcome(const std::vector<RunResult>& runs) {
  const Lesson& l = current();
  verdict_->setText(lessonVerdict(l, prediction_->value(), runs));
  showWhy(false);
  std::vector<RunResult> finished;
  for (const RunResult& run : runs)
    if (run.status == RunStatus::Ok && run.stats.median > 0) finished.push_back(run);
  const std::size_t expected = (l.baseline ? 2u : 1u) + (l.exercise.empty() ? 0u : 1u);
  if (finished.size() != expected || finished.size() != runs.size()) return;
  if (l.view == "roofline") {
    roofline_->setRuns(finished, {}, true);
    whyTitle_->setText(
        tr("<b>The roofline:</b> each run against this card's measured roofs, a dashed line "
           "from the baseline to the step."));
    why_->setCurrentWidget(roofline_);
  } else if (l.view == "waves") {
    waves_->setRuns(finished, smCount_);
    whyTitle_->setText(
        tr("<b>The waves:</b> the baseline's waves in words, the step's grid drawn "
           "as waves of blocks over the SMs."));
    why_->setCurrentWidget(waves_);
  } else {
    explain_->setRuns(0, finished.front(), 0, finished.back());
    whyTitle_->setText(
        tr("<b>Explain:</b> why the step differs from the baseline, from their "
           "counters."));
    why_->setCurrentWidget(explain_);
  }
  showWhy(true);
}

QString LessonPage::verdictText() const {
  return verdict_->text();
}

}  // namespace kwb
