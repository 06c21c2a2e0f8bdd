#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

#include "db/runstore.h"
#include "widgets/mainwindow.h"

namespace kwb {

// The window with its jobs on another host: this machine's kwb passes them through ssh to the
// host's worker (the recorded H100 worker, tests/fixtures/workers/recorded_worker.sh, behind an
// sshd of the test's own on loopback, tests/remote/sshd_loopback.sh) and stores the results here.
class RemoteWindowTest : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    dir_.emplace();  // keys and history of each test's own
    QProcess sshd;
    sshd.start("bash", {KWB_SOURCE_DIR "/tests/remote/sshd_loopback.sh", "start", dir_->path()});
    QVERIFY(sshd.waitForFinished(30000));
    if (sshd.exitCode() == 77) QSKIP("no sshd here");
    QVERIFY2(sshd.exitCode() == 0, sshd.readAllStandardError().constData());
    qputenv("KWB_SSH", ("ssh -F " + dir_->filePath("ssh_config")).toUtf8());
  }
  void cleanup() {
    QProcess::execute("bash",
                      {KWB_SOURCE_DIR "/tests/remote/sshd_loopback.sh", "stop", dir_->path()});
    qunsetenv("KWB_SSH");
    qunsetenv("KWB_REMOTE_KWB");
    dir_.reset();
  }

  // The status bar names the host and its GPU; a sweep's results are this history's runs with
  // the remote device.
  void aSweepRunsOnTheHostAndIsStoredHere() {
    recordedWorker(0);
    MainWindow window(KWB_EXECUTABLE, remoteSettings());
    QSignalSpy ended(&window, &MainWindow::jobEnded);
    window.selectWhenReady("copy", "vectorized", {"n=2^24,2^25"});
    QTRY_VERIFY_WITH_TIMEOUT(ended.count() == 1, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(deviceText(window).startsWith("kwbtest, GPU 0: NVIDIA H100"), 10000);
    RunStore store(database().toStdString());
    const auto runs = store.query({});
    QCOMPARE(runs.size(), std::size_t{1});
    QCOMPARE(runs[0].deviceName, std::string("NVIDIA H100 80GB HBM3"));
    QVERIFY(runs[0].sweepId);
  }

  // Both of the host's GPUs share the sweep, a worker each; the status bar says so.
  void aSweepSharedAmongTheHostsGpusIsOneSweepHere() {
    recordedWorker(0);
    Settings settings = remoteSettings();
    settings.devices = "all";
    MainWindow window(KWB_EXECUTABLE, settings);
    QSignalSpy ended(&window, &MainWindow::jobEnded);
    window.selectWhenReady("copy", "vectorized", {"n=2^24,2^25,2^26"});
    QTRY_VERIFY_WITH_TIMEOUT(ended.count() == 1, 30000);
    QVERIFY2(deviceText(window).startsWith("kwbtest, GPUs all: NVIDIA H100"),
             qPrintable(deviceText(window)));
    RunStore store(database().toStdString());
    const auto runs = store.query({});
    QCOMPARE(runs.size(), std::size_t{3});
    QCOMPARE(runs[0].sweepId, runs[2].sweepId);
  }

  // A connection that drops mid-job ends the job with one sentence.
  void aDroppedConnectionIsSaidInOneSentence() {
    recordedWorker(1);
    MainWindow window(KWB_EXECUTABLE, remoteSettings());
    QSignalSpy ended(&window, &MainWindow::jobEnded);
    window.selectWhenReady("copy", "vectorized", {"n=2^24,2^25"});
    QTRY_VERIFY_WITH_TIMEOUT(ended.count() == 1, 30000);
    const QString said = window.findChild<QLabel*>("messageLabel")->text();
    QVERIFY2(said.contains("the connection to the worker ended (exited with status 3 (ending on "
                           "purpose)); the results that arrived are kept"),
             qPrintable(said));
  }

 private:
  QString database() const { return dir_->filePath("h.sqlite"); }
  Settings remoteSettings() const {
    Settings settings{database(), 0, 0.05, "none", dir_->filePath("kernels")};
    settings.host = "kwbtest";
    return settings;
  }
  void recordedWorker(int endAt) {
    QProcess make;
    make.start("bash", {KWB_FIXTURES_DIR "/workers/recorded_worker.sh", dir_->path(),
                        QString::number(endAt), "", KWB_EXECUTABLE});
    QVERIFY(make.waitForFinished(10000));
    qputenv("KWB_REMOTE_KWB", make.readAllStandardOutput().trimmed());
  }
  static QString deviceText(MainWindow& window) {
    QString text;
    for (auto* label : window.statusBar()->findChildren<QLabel*>())
      if (label->text().contains("GPU")) text = label->text();
    return text;
  }

  std::optional<QTemporaryDir> dir_;
};

}  // namespace kwb

QTEST_MAIN(kwb::RemoteWindowTest)
#include "remotewindow_test.moc"
