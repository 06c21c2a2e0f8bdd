#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "db/runstore.h"
#include "widgets/jobsession.h"
#include "widgets/metatypes.h"
#include "widgets/workerclient.h"

namespace kwb {

// A kernel file that faults or hangs, run from the window's side against the real `kwb worker`:
// the session says what happened, the run is stored as failed, the next run works on a fresh
// worker. Needs a GPU; reports itself skipped without one.
class KernelFaultGpuTest : public QObject {
  Q_OBJECT

  static protocol::Kernel file(const char* name, RawParams params = {}) {
    const QString path = QString(KWB_SOURCE_DIR) + "/" + name;
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return {{}, {}, std::move(params), path.toStdString(), f.readAll().toStdString()};
  }
  static JobPlan runOf(protocol::Kernel kernel, double hangAfter = 30) {
    MeasureSettings settings;
    settings.budget = 0.05;
    settings.hangSeconds = hangAfter;
    JobPlan plan;
    plan.requests.push_back(protocol::RunRequest{std::move(kernel), settings});
    return plan;
  }

 private slots:
  void faultsAndHangsAreFailedRunsAndTheNextRunWorks() {
    const QString db = dir_.filePath("h.sqlite");
    WorkerClient worker(KWB_EXECUTABLE, {"--db", db});
    JobSession session(&worker);
    QSignalSpy finished(&session, &JobSession::finished);
    QSignalSpy failed(&session, &JobSession::failed);
    QSignalSpy noDevice(&worker, &WorkerClient::noDevice);
    QSignalSpy devices(&worker, &WorkerClient::devicesReceived);
    worker.requestDevices();
    QTRY_VERIFY_WITH_TIMEOUT(noDevice.count() + devices.count() > 0, 60000);
    if (noDevice.count() > 0) QSKIP("no CUDA device: kernel faults need one");

    const struct {
      JobPlan plan;
      const char* says;
    } cases[] = {{runOf(file("tests/fixtures/kernels/fault.cu", {{"HOW", "0"}})), "illegal"},
                 {runOf(file("tests/fixtures/kernels/fault.cu", {{"HOW", "1"}})), "launch"},
                 {runOf(file("tests/fixtures/kernels/hang.cu"), 2), "did not finish within 2 s"}};
    for (const auto& c : cases) {
      failed.clear();
      session.start(c.plan);
      QTRY_VERIFY_WITH_TIMEOUT(failed.count() > 0, 120000);
      const QString message = failed.at(0).at(0).toString();
      QVERIFY2(message.contains(c.says, Qt::CaseInsensitive), qPrintable(message));
      QCOMPARE(session.runs().size(), std::size_t{1});
      QVERIFY(session.runs().front().status == RunStatus::Failed);

      finished.clear();
      session.start(runOf(file("examples/kernels/saxpy.cu", {{"n", "65536"}})));
      QTRY_VERIFY_WITH_TIMEOUT(finished.count() > 0 || failed.count() > 1, 120000);
      QCOMPARE(finished.count(), 1);
      QVERIFY(session.runs().front().status == RunStatus::Ok);
    }
    RunStore store(db.toStdString());
    HistoryFilter failures;
    failures.status = "failed";
    QCOMPARE(store.count(failures), std::size_t{3});
  }

 private:
  QTemporaryDir dir_;
};

}  // namespace kwb

QTEST_MAIN(kwb::KernelFaultGpuTest)
#include "kernelfault_gpu_test.moc"
