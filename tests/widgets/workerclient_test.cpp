#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "widgets/fakeworker.h"
#include "widgets/metatypes.h"
#include "widgets/workerclient.h"

namespace kwb {

// The client against the real `kwb worker` (here, typically without a GPU) and against scripted
// workers that replay the recorded H100 session, crash in the middle of it, or hang.
class WorkerClientTest : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;

  QString kwb() const { return KWB_EXECUTABLE; }
  QStringList storeless() const { return {"--no-store"}; }

  QString fakeWorker(const QString& name, const QString& afterReplay, int replayLines) {
    return testing::fakeWorker(dir_, name, afterReplay, replayLines);
  }
  static protocol::RunRequest runRequest() { return testing::recordedRunRequest(); }

 private slots:
  void catalogAndParameterErrorsFromTheRealWorker() {
    WorkerClient client(kwb(), storeless());
    QSignalSpy catalog(&client, &WorkerClient::catalogReceived);
    QSignalSpy errors(&client, &WorkerClient::jobError);
    client.requestCatalog();
    QVERIFY(catalog.wait(10000));
    const auto families = catalog.at(0).at(0).value<std::vector<FamilyInfo>>();
    QVERIFY(families.size() >= 2);
    QCOMPARE(QString::fromStdString(families[0].name), QString("copy"));

    protocol::RunRequest bad = runRequest();
    bad.kernel.params["block_size"] = "100";
    const QString id = client.submit(bad);
    QVERIFY(errors.wait(10000));
    QCOMPARE(errors.at(0).at(0).toString(), id);
    QCOMPARE(errors.at(0).at(1).toString(), QString("param"));
    QCOMPARE(errors.at(0).at(3).toString(), QString("block_size"));
    QVERIFY(!client.busy());
  }

  void recordedRunStreamsProgressResultAndDone() {
    WorkerClient client(fakeWorker("replay.sh", "sleep 30", 6), {});
    QSignalSpy results(&client, &WorkerClient::resultReceived);
    QSignalSpy done(&client, &WorkerClient::jobDone);
    QSignalSpy progress(&client, &WorkerClient::progress);
    const QString id = client.submit(runRequest());
    QVERIFY(done.wait(10000));
    QCOMPARE(done.at(0).at(0).toString(), id);
    QCOMPARE(done.at(0).at(1).toInt(), 1);
    QCOMPARE(results.count(), 1);
    const auto run = results.at(0).at(2).value<RunResult>();
    QCOMPARE(QString::fromStdString(run.variant), QString("vectorized"));
    QVERIFY(run.bandwidth > 1e12);
    QVERIFY(progress.count() >= 2);
    QVERIFY(!client.busy());
  }

  void crashKeepsPartialResultsAndSaysSo() {
    // Replays up to and including the result, then dies as a kernel fault would end it.
    WorkerClient client(
        fakeWorker("crash.sh", "echo 'an illegal memory access was encountered' >&2\nkill -SEGV $$",
                   4),
        {});
    QSignalSpy results(&client, &WorkerClient::resultReceived);
    QSignalSpy lost(&client, &WorkerClient::workerLost);
    const QString id = client.submit(runRequest());
    QVERIFY(lost.wait(10000));
    QCOMPARE(results.count(), 1);
    QCOMPARE(lost.at(0).at(0).toString(), id);
    const QString sentence = lost.at(0).at(1).toString();
    QVERIFY2(sentence.contains("crashed (an illegal memory access was encountered)") &&
                 sentence.contains("1 result"),
             qPrintable(sentence));
    // The next job starts a new worker.
    client.submit(runRequest());
    QVERIFY(results.wait(10000));
  }

  void cancelStopsTheJobAndKeepsTheWorker() {
    // Replays the start of the run, then answers the cancel as the worker does.
    WorkerClient client(
        fakeWorker("cancel.sh",
                   "read -r cancel\n"
                   "printf '{\"v\":2,\"type\":\"done\",\"id\":\"%s\",\"completed\":0,"
                   "\"cancelled\":true}\\n' \"$id\"\n"
                   "sleep 30",
                   3),
        {});
    client.setCancelGraceMs(300);
    QSignalSpy progress(&client, &WorkerClient::progress);
    QSignalSpy done(&client, &WorkerClient::jobDone);
    QSignalSpy lost(&client, &WorkerClient::workerLost);
    const QString id = client.submit(runRequest());
    QVERIFY(progress.wait(10000));
    client.cancel(id);
    QVERIFY(done.wait(5000));
    QCOMPARE(done.at(0).at(0).toString(), id);
    QCOMPARE(done.at(0).at(2).toBool(), true);
    QTest::qWait(500);  // past the grace period: a job that stopped leaves its worker alone
    QVERIFY(client.running());
    QCOMPARE(lost.count(), 0);
  }

  void cancelEndsAWorkerThatDoesNotStop() {
    WorkerClient client(fakeWorker("hang.sh", "sleep 30", 3), {});
    client.setCancelGraceMs(300);
    QSignalSpy progress(&client, &WorkerClient::progress);
    QSignalSpy lost(&client, &WorkerClient::workerLost);
    const QString id = client.submit(runRequest());
    QVERIFY(progress.wait(10000));
    client.cancel(id);
    QVERIFY(lost.wait(5000));
    QVERIFY(lost.at(0).at(1).toString().contains("did not stop"));
  }

  void anotherProtocolVersionIsSaidInOneSentence() {
    const QString path = dir_.filePath("future.sh");
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write(
        "#!/bin/sh\n"
        "echo '{\"v\":3,\"type\":\"hello\",\"app_version\":\"9.0\",\"protocol\":3}'\n"
        "sleep 30\n");
    file.close();
    file.setPermissions(file.permissions() | QFileDevice::ExeOwner);
    WorkerClient client(path, {});
    QSignalSpy incompatible(&client, &WorkerClient::incompatible);
    QSignalSpy catalog(&client, &WorkerClient::catalogReceived);
    client.requestCatalog();
    QVERIFY(incompatible.wait(5000));
    const QString sentence = incompatible.at(0).at(0).toString();
    QVERIFY2(sentence.contains("protocol version 3") && sentence.contains("speaks 2") &&
                 sentence.endsWith("."),
             qPrintable(sentence));
    QCOMPARE(catalog.count(), 0);
  }

  void watchdogEndsASilentWorker() {
    WorkerClient client(fakeWorker("silent.sh", "sleep 30", 3), {});
    client.setWatchdogSeconds(0.5);
    QSignalSpy lost(&client, &WorkerClient::workerLost);
    client.submit(runRequest());
    QVERIFY(lost.wait(5000));
    QVERIFY(lost.at(0).at(1).toString().contains("silent"));
  }
};

}  // namespace kwb

QTEST_MAIN(kwb::WorkerClientTest)
#include "workerclient_test.moc"
