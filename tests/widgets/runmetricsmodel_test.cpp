#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

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
    ResultsPage page(&results);
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
};

}  // namespace kwb

QTEST_MAIN(kwb::RunMetricsModelTest)
#include "runmetricsmodel_test.moc"
