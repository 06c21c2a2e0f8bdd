#pragma once

#include <span>
#include <vector>

#include <QWidget>

#include "core/ceilings.h"
#include "core/lesson.h"
#include "core/runresult.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QStackedWidget;

namespace kwb {

class ExplainView;
class RooflinePlot;
class WavesPlot;

// The lesson's outcome (core/lessonoutcome.h) as rich text: the speed-up over the baseline (or
// the step's time where the lesson has none) against the prediction, and the explaining metric
// before and after; or why the runs cannot be compared. runs: the baseline's, (the learner's in
// an exercise,) then the step's.
QString lessonVerdict(const Lesson& lesson, double predicted, std::span<const RunResult> runs);

// A workshop step: pick a lesson, read what it teaches, predict, run the baseline and the step,
// see the measured outcome next to the prediction, and under it the view the lesson names
// (roofline, waves or explain) with the lesson's runs.
class LessonPage : public QWidget {
  Q_OBJECT

 public:
  explicit LessonPage(QWidget* parent = nullptr);

  const Lesson& current() const;
  void selectLesson(const QString& id);
  void setPrediction(double value);
  // While a lesson runs, its button waits.
  void setBusy(bool busy);
  // The device the lessons run on: its SMs for the waves, its measured roofs for the roofline.
  void setDevice(int smCount, std::vector<DeviceCeiling> ceilings);
  // The runs of the current lesson, the baseline first where it has one.
  void showOutcome(const std::vector<RunResult>& runs);
  QString verdictText() const;
  // The lesson's view as the last outcome left it; null before a lesson ran.
  QWidget* shownView() const;

 signals:
  void runRequested(const kwb::Lesson& lesson);
  // The step's machine code beside its baseline's.
  void sassRequested(const kwb::Lesson& lesson);
  // An exercise's starting file, to open in the editor.
  void exerciseRequested(const kwb::Lesson& lesson);

 private:
  void showLesson(int index);
  void showWhy(bool shown);

  QComboBox* lessons_;
  QLabel* title_;
  QLabel* explanation_;
  QLabel* question_;
  QDoubleSpinBox* prediction_;
  QLabel* unit_;
  QPushButton* run_;
  QPushButton* sass_;
  QPushButton* start_;
  QLabel* commands_;
  QLabel* verdict_;
  QLabel* whyTitle_;
  QStackedWidget* why_;
  RooflinePlot* roofline_;
  WavesPlot* waves_;
  ExplainView* explain_;
  int smCount_ = 0;
};

}  // namespace kwb
