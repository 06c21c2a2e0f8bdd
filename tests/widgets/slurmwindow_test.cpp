#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include "db/runstore.h"
#include "tests/db/testdb.h"
#include "widgets/mainwindow.h"

namespace kwb {

// The window with Settings saying Slurm: its sweep goes to a Slurm of the test's own on loopback
// (tests/slurm/slurm_loopback.sh) as a job array whose tasks are the stand-in
// (tests/fixtures/workers/slurm_task.sh), and the runs merged come back into the window.
class SlurmWindowTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QProcess slurm;
    slurm.start("bash", {KWB_SOURCE_DIR "/tests/slurm/slurm_loopback.sh", "start", dir_.path()});
    QVERIFY(slurm.waitForFinished(60000));
    if (slurm.exitCode() == 77) QSKIP("no Slurm here, or not root");
    QVERIFY2(slurm.exitCode() == 0, slurm.readAllStandardOutput().constData());
    started_ = true;
    qputenv("SLURM_CONF", dir_.filePath("slurm.conf").toUtf8());
    qputenv("KWB_SLURM_KWB", "bash " KWB_FIXTURES_DIR "/workers/slurm_task.sh");
    QDir(dir_.path()).mkdir("tasks");
    qputenv("KWB_TEST_TASKS", dir_.filePath("tasks").toUtf8());
    for (int t = 0; t < 2; ++t) {
      RunStore store(dir_.filePath("tasks/task-%1.sqlite").arg(t).toStdString());
      store.upsertDevice(testing::fakeDevice("GPU-aaaa", "NVIDIA H100 80GB HBM3"));
      const auto sweep = store.createSweep("copy", "vectorized", {}, nlohmann::json::array());
      for (int r = 0; r < 2; ++r)
        store.insertRun(testing::fakeRun("vectorized", "f32", 10 * t + r), sweep);
    }
  }
  void cleanupTestCase() {
    if (started_)
      QProcess::execute("bash",
                        {KWB_SOURCE_DIR "/tests/slurm/slurm_loopback.sh", "stop", dir_.path()});
  }

  void aSweepGoesToSlurmAndItsRunsComeBack() {
    Settings settings{dir_.filePath("h.sqlite"), 0, 0.05, "none", dir_.filePath("kernels")};
    settings.slurm = true;
    settings.tasks = 2;
    MainWindow window(KWB_EXECUTABLE, settings);
    QSignalSpy ended(&window, &MainWindow::jobEnded);
    window.selectWhenReady("copy", "vectorized", {"n=2^20,2^21,2^22"});
    QTRY_VERIFY_WITH_TIMEOUT(ended.count() == 1, 60000);
    QString status;
    for (auto* label : window.statusBar()->findChildren<QLabel*>())
      if (label->text().startsWith("Slurm")) status = label->text();
    QCOMPARE(status, QString("Slurm: default partition, no gres, 2 tasks at most"));
    QCOMPARE(RunStore(dir_.filePath("h.sqlite").toStdString()).count({}), std::size_t{4});
    const QString said = window.findChild<QLabel*>("messageLabel")->text();
    QVERIFY2(said.startsWith("Done: 4 point"), qPrintable(said));
  }

 private:
  QTemporaryDir dir_;
  bool started_ = false;
};

}  // namespace kwb

QTEST_MAIN(kwb::SlurmWindowTest)
#include "slurmwindow_test.moc"
