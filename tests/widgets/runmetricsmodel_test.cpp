#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <QTemporaryDir>
#include "core/stats.h"
#include "db/baselinestore.h"
#include "db/runstore.h"
#include "widgets/qualitypanel.h"
#include "widgets/resultsmodel.h"
#include "widgets/resultspage.h"
#include "widgets/runmetricsmodel.h"

namespace kwb {

namespace {

RunResult runWithMetrics() {
  RunResult run;
  run.family = "copy";
  run.variant = "vectorized";
  run.stats = {10, 1e-6, 3e-6, 2e-6, 2e-6, 1e-7};
  run.samples.assign(10, 2e-6);
  run.throttledSamples = {3, 4};
  run.metrics = {{"dram__bytes_read.sum", 64.0 * 1024 * 1024, "B", ""},
                 {"dram__throughput.avg.pct_of_peak_sustained_elapsed", 86.04, "%", ""},
                 {"gpu.sm_clock", 1980, "MHz", ""},
                 {"dram__bytes_read.sum", 48.0 * 1024 * 1024, "B", "gather"},
                 {"dram__bytes_read.sum", 16.0 * 1024 * 1024, "B", "reduce"}};
  return run;
}

}  // namespace

class RunMetricsModelTest : public QObject {
  Q_OBJECT

 private slots:
  void showsEachMetricInItsUnit() {
    RunMetricsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    model.setRun(runWithMetrics());
    // Counters first (the run's, then each kernel's), the GPU state last.
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.columnCount(), int(RunMetricsModel::ColumnCount));
    QCOMPARE(model.data(model.index(0, RunMetricsModel::ValueColumn)).toString(),
             QString("64.00 MiB"));
    QCOMPARE(model.data(model.index(1, RunMetricsModel::ValueColumn)).toString(), QString("86.0%"));
    QCOMPARE(model.data(model.index(0, RunMetricsModel::KernelColumn)).toString(),
             QString("(run)"));
    QCOMPARE(model.data(model.index(2, RunMetricsModel::KernelColumn)).toString(),
             QString("gather"));
    QCOMPARE(model.data(model.index(3, RunMetricsModel::ValueColumn)).toString(),
             QString("16.00 MiB"));
    QCOMPARE(model.data(model.index(4, RunMetricsModel::ValueColumn)).toString(),
             QString("1,980 MHz"));
    QCOMPARE(model.data(model.index(1, RunMetricsModel::ValueColumn), RunMetricsModel::SortRole)
                 .toDouble(),
             86.04);
    QVERIFY(!model.data(model.index(4, RunMetricsModel::NameColumn), Qt::ToolTipRole)
                 .toString()
                 .isEmpty());
    QCOMPARE(model.kernels(), QStringList({"gather", "reduce"}));

    // One kernel: its rows would repeat the run's, so only the run's are shown.
    RunResult single = runWithMetrics();
    single.metrics.pop_back();
    model.setRun(single);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.kernels(), QStringList({"gather"}));
    model.setRun({});
    QCOMPARE(model.rowCount(), 0);
  }

  // The page shows the newest run's metrics until the user picks a row, then that row's.
  void pageFollowsTheSelection() {
    ResultsModel results;
    ResultsPage page(&results, {});
    RunResult first = runWithMetrics();
    results.append(first);
    QCOMPARE(page.metricsModel()->rowCount(), 5);
    RunResult second;
    second.metrics = {{"gpu.sm_clock", 1755, "MHz", ""}};
    results.append(second);
    QCOMPARE(page.metricsModel()->rowCount(), 1);
    page.table()->selectRow(0);
    QCOMPARE(page.metricsModel()->rowCount(), 5);
    results.clear();
    QCOMPARE(page.metricsModel()->rowCount(), 0);
  }

  // Beside the metrics: the run's quality with a sentence per doubt, and its verdict against the
  // baseline marked in the history.
  void qualityPanelJudgesTheRun() {
    QTemporaryDir dir;
    const QString path = dir.filePath("h.sqlite");
    RunResult base;
    base.family = "copy";
    base.variant = "vectorized";
    base.startedAt = 1000;
    for (int i = 0; i < 40; ++i) base.samples.push_back(50e-6 * (1 + 0.001 * (i % 3)));
    base.stats = summarize(base.samples);
    base.converged = true;
    base.eventOverhead = 1.3e-6;
    RunResult later = base;
    later.startedAt = 2000;
    for (double& x : later.samples) x *= 1.1;
    later.stats = summarize(later.samples);
    later.throttledSamples = {7, 8};
    std::int64_t laterId = 0;
    {
      RunStore store(path.toStdString());
      BaselineStore(store.database()).mark(store.insertRun(base), false);
      laterId = store.insertRun(later);
    }
    ResultsModel results;
    ResultsPage page(&results, path);
    results.append(later, laterId);
    const QString text = page.qualityPanel()->text();
    QVERIFY2(text.contains("40, spread"), qPrintable(text));
    QVERIFY2(text.contains("2 of 40 samples were taken while the GPU held its clocks down"),
             qPrintable(text));
    QVERIFY2(text.contains("Against baseline run 1: 1.100x the time"), qPrintable(text));
    QVERIFY2(text.contains("SLOWER"), qPrintable(text));
    results.clear();
    QVERIFY(!page.qualityPanel()->text().contains("spread"));
  }
};

}  // namespace kwb

QTEST_MAIN(kwb::RunMetricsModelTest)
#include "runmetricsmodel_test.moc"
