#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include "core/lessonruns.h"
#include "widgets/explainview.h"
#include "widgets/lessonpage.h"

namespace kwb {

class LessonPageTest : public QObject {
  Q_OBJECT

 private slots:
  void verdictHoldsTheMeasurementAgainstThePrediction() {
    const Lesson& padding = *findLesson("permute-5-padding");
    const RunResult off = testing::lessonRun("tiled", 300e-6, 6.5e7),
                    on = testing::lessonRun("tiled", 200e-6, 48800);
    const QString text = lessonVerdict(padding, 1.2, std::vector{off, on});
    QVERIFY2(text.contains("Measured speed-up 1.5x"), qPrintable(text));
    QVERIFY2(text.contains("you predicted 1.2x (off by 1.25x)"), qPrintable(text));
    QVERIFY2(text.contains("65,000,000") && text.contains("48,800"), qPrintable(text));
    const Lesson& first = *findLesson("giou-1-per-sample");
    const QString alone =
        lessonVerdict(first, 50000, std::vector{testing::lessonRun("per_sample", 0.1, 0)});
    QVERIFY2(alone.contains("you predicted 5e+04 us (off by 2x)"), qPrintable(alone));
  }

  void anExerciseShowsTheLearnersKernelBesideTheStep() {
    const Lesson& exercise = *findLesson("permute-6-exercise");
    const QString text = lessonVerdict(exercise, 2.0,
                                       std::vector{testing::lessonRun("naive", 600e-6, 1),
                                                   testing::lessonRun("my_transpose", 300e-6, 2),
                                                   testing::lessonRun("tiled", 200e-6, 3)});
    QVERIFY2(text.contains("Your speed-up 2x</b>, you predicted 2x (off by 1x)"), qPrintable(text));
    QVERIFY2(text.contains("the built-in step's: 3x"), qPrintable(text));
    LessonPage page;
    QSignalSpy opened(&page, &LessonPage::exerciseRequested);
    page.selectLesson("permute-6-exercise");
    QPushButton* start = nullptr;
    for (auto* button : page.findChildren<QPushButton*>())
      if (button->text() == "Open the starting file") start = button;
    QVERIFY(start);
    start->click();
    QCOMPARE(opened.count(), 1);
  }

  void pageAsksRunsAndShowsTheOutcome() {
    LessonPage page;
    page.selectLesson("permute-5-padding");
    QCOMPARE(page.current().id, std::string("permute-5-padding"));
    page.setPrediction(2.0);
    QSignalSpy asked(&page, &LessonPage::runRequested);
    auto* run = page.findChild<QPushButton*>();
    QVERIFY(run);
    page.setBusy(true);
    QVERIFY(!run->isEnabled());  // one lesson at a time
    page.setBusy(false);
    QTest::mouseClick(run, Qt::LeftButton);
    QCOMPARE(asked.count(), 1);
    QCOMPARE(asked.front().front().value<Lesson>().id, std::string("permute-5-padding"));
    page.showOutcome(
        {testing::lessonRun("tiled", 300e-6, 1), testing::lessonRun("tiled", 150e-6, 1)});
    QVERIFY2(page.verdictText().contains("Measured speed-up 2x"), qPrintable(page.verdictText()));
    // The lesson names the explain view: the baseline against the step, on the Lesson tab.
    const auto* explain = qobject_cast<ExplainView*>(page.shownView());
    QVERIFY(explain);
    QVERIFY2(explain->readings().contains("time: 300.00 us -> 150.00 us"),
             qPrintable(explain->readings()));
    page.showOutcome({testing::lessonRun("tiled", 300e-6, 1)});
    QVERIFY(page.verdictText().contains("stopped before its runs finished"));
    QVERIFY(!page.shownView());
    RunResult failed = testing::lessonRun("tiled", 1, 1);
    failed.status = RunStatus::Failed;
    failed.error = "an illegal memory access";
    page.showOutcome({failed});
    QVERIFY(page.verdictText().contains("an illegal memory access"));
  }
};

}  // namespace kwb

QTEST_MAIN(kwb::LessonPageTest)
#include "lessonpage_test.moc"
