#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "widgets/fakeworker.h"
#include "widgets/jobsession.h"
#include "widgets/metatypes.h"
#include "widgets/workerclient.h"

namespace kwb {

// The window's job handling against scripted workers that replay the recorded H100 run, and
// against the real worker for refusals.
class JobSessionTest : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;

  static JobPlan plan(int requests) {
    JobPlan p;
    for (int i = 0; i < requests; ++i) p.requests.push_back(testing::recordedRunRequest());
    return p;
  }

 private slots:
  void aRunStartsStreamsAndFinishes() {
    WorkerClient worker(testing::fakeWorker(dir_, "replay.sh", "sleep 30", 6), {});
    JobSession session(&worker);
    QSignalSpy started(&session, &JobSession::started);
    QSignalSpy points(&session, &JobSession::point);
    QSignalSpy progress(&session, &JobSession::progress);
    QSignalSpy finished(&session, &JobSession::finished);
    QVERIFY(session.start(plan(1)));
    QCOMPARE(started.count(), 1);
    QVERIFY(session.running());
    QVERIFY(!session.start(plan(1)));  // one job at a time
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.at(0).at(0).toInt(), 1);
    QCOMPARE(finished.at(0).at(1).toBool(), false);
    QCOMPARE(points.count(), 1);
    QVERIFY(progress.count() >= 2);
    QCOMPARE(session.runs().size(), std::size_t{1});
    QCOMPARE(QString::fromStdString(session.runs()[0].variant), QString("vectorized"));
    QVERIFY(!session.running());
  }

  void aLessonSendsItsRequestsInOrder() {
    WorkerClient worker(testing::fakeWorker(dir_, "loop.sh", "", 6, /*once=*/false), {});
    JobSession session(&worker);
    QSignalSpy points(&session, &JobSession::point);
    QSignalSpy finished(&session, &JobSession::finished);
    JobPlan lesson = plan(2);
    lesson.lesson = "permute-5-padding";
    QVERIFY(session.start(lesson));
    QVERIFY(finished.wait(10000));
    QCOMPARE(points.count(), 2);  // baseline and step, one finished job
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(0).toInt(), 2);
    QCOMPARE(session.plan().lesson, QString("permute-5-padding"));
  }

  void stopEndsTheJobAndDropsWhatHasNotStarted() {
    WorkerClient worker(
        testing::fakeWorker(dir_, "cancel.sh",
                            "read -r cancel\n"
                            "printf '{\"v\":2,\"type\":\"done\",\"id\":\"%s\",\"completed\":0,"
                            "\"cancelled\":true}\\n' \"$id\"\n"
                            "sleep 30",
                            3),
        {});
    JobSession session(&worker);
    QSignalSpy progress(&session, &JobSession::progress);
    QSignalSpy finished(&session, &JobSession::finished);
    QVERIFY(session.start(plan(2)));
    QVERIFY(progress.wait(10000));
    session.stop();
    QVERIFY(finished.wait(5000));
    QCOMPARE(finished.at(0).at(1).toBool(), true);
    QTest::qWait(200);
    QCOMPARE(finished.count(), 1);  // the second request was never sent
    QVERIFY(!session.running());
  }

  void aRefusedRequestFailsNamingTheParameter() {
    WorkerClient worker(KWB_EXECUTABLE, {"--no-store"});
    JobSession session(&worker);
    QSignalSpy failed(&session, &JobSession::failed);
    JobPlan bad = plan(1);
    std::get<protocol::RunRequest>(bad.requests[0]).kernel.params["block_size"] = "100";
    QVERIFY(session.start(bad));
    QVERIFY(failed.wait(10000));
    QVERIFY(failed.at(0).at(0).toString().contains("multiple of 32"));
    QCOMPARE(failed.at(0).at(1).toString(), QString("block_size"));
    QVERIFY(!session.running());
  }

  void aLostWorkerFailsTheJob() {
    WorkerClient worker(testing::fakeWorker(dir_, "die.sh", "kill -SEGV $$", 4), {});
    JobSession session(&worker);
    QSignalSpy failed(&session, &JobSession::failed);
    QVERIFY(session.start(plan(2)));
    QVERIFY(failed.wait(10000));
    QVERIFY(failed.at(0).at(0).toString().contains("crashed"));
    QCOMPARE(session.runs().size(), std::size_t{1});  // what arrived before is kept
  }

  void lessonRunsAreTaggedAsTheCliTagsThem() {
    MeasureSettings settings;
    settings.budget = 0.5;
    const JobPlan p = lessonPlan(*findLesson("permute-5-padding"), settings);
    QCOMPARE(p.requests.size(), std::size_t{2});
    QCOMPARE(p.lesson, QString("permute-5-padding"));
    for (const auto& request : p.requests) {
      const auto& run = std::get<protocol::RunRequest>(request);
      QCOMPARE(run.options.tags, std::vector<std::string>{"lesson:permute-5-padding"});
      QCOMPARE(run.options.budget, 0.5);
    }
    const JobPlan alone = lessonPlan(*findLesson("giou-1-per-sample"), settings);
    QCOMPARE(alone.requests.size(), std::size_t{1});  // no baseline: the step alone
    const protocol::Kernel yours{{}, {}, {{"shape", "4096,4096"}}, "/k/t.cu", "/* kwb */"};
    const JobPlan exercise = lessonPlan(*findLesson("permute-6-exercise"), settings, yours);
    QCOMPARE(exercise.requests.size(), std::size_t{3});  // baseline, yours, the step
    const auto& middle = std::get<protocol::RunRequest>(exercise.requests[1]);
    QCOMPARE(middle.kernel.path, std::string("/k/t.cu"));
    QCOMPARE(middle.options.tags, std::vector<std::string>{"lesson:permute-6-exercise"});
  }

  void theWatchdogAllowsAPointItsBudgetManyTimesOver() {
    QCOMPARE(JobSession::watchdogSeconds(1), 120.0);
    QCOMPARE(JobSession::watchdogSeconds(30), 600.0);
  }
};

}  // namespace kwb

QTEST_MAIN(kwb::JobSessionTest)
#include "jobsession_test.moc"
