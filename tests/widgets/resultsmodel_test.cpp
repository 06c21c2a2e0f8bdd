#include <QAbstractItemModelTester>
#include <QTest>

#include "widgets/resultsmodel.h"

namespace kwb {

class ResultsModelTest : public QObject {
  Q_OBJECT

 private slots:
  void rowsStreamInAndShowValues() {
    ResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    RunResult run;
    run.family = "copy";
    run.variant = "vectorized";
    run.problem.set("n", "1024");
    run.stats = {10, 1e-6, 3e-6, 2e-6, 2e-6, 1e-7};
    run.bandwidth = 2.5e12;
    run.ceilingBandwidth = 3e12;
    run.verification = {true, true, 0, 1e-6};
    run.metrics = {{"activity.duration.median", 1.5e-6, "s", ""},
                   {"host.wall_per_call", 9e-6, "s", ""},
                   {"host.launches_per_call", 29, "", ""}};
    model.append(run);
    QCOMPARE(model.data(model.index(0, ResultsModel::ParamsColumn)).toString(),
             QString("vectorized  n=1024"));  // one run: everything
    run.problem.set("n", "2048");
    run.status = RunStatus::Failed;
    run.error = "an illegal memory access";
    run.stats = {};
    run.metrics = {};
    model.append(run);

    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.columnCount(), int(ResultsModel::ColumnCount));
    QCOMPARE(model.data(model.index(0, ResultsModel::MedianColumn)).toString(), QString("2.00 us"));
    QCOMPARE(model.data(model.index(0, ResultsModel::TracedColumn)).toString(), QString("1.50 us"));
    QCOMPARE(model.data(model.index(0, ResultsModel::WallColumn)).toString(), QString("9.00 us"));
    QCOMPARE(model.data(model.index(0, ResultsModel::LaunchesColumn)).toString(), QString("29"));
    QCOMPARE(model.data(model.index(1, ResultsModel::LaunchesColumn)).toString(), QString());
    QCOMPARE(
        model.data(model.index(0, ResultsModel::CeilingColumn), ResultsModel::SortRole).toDouble(),
        2.5 / 3);
    QCOMPARE(model.data(model.index(1, ResultsModel::StatusColumn)).toString(), QString("failed"));
    QCOMPARE(model.data(model.index(1, ResultsModel::MedianColumn)).toString(), QString());
    QCOMPARE(model.data(model.index(1, ResultsModel::TracedColumn)).toString(), QString());
    QCOMPARE(model.data(model.index(1, ResultsModel::StatusColumn), Qt::ToolTipRole).toString(),
             QString("an illegal memory access"));
    // The parameters column shows what changes between the points, in every row.
    QCOMPARE(model.data(model.index(0, ResultsModel::ParamsColumn)).toString(), QString("n=1024"));
    QCOMPARE(model.data(model.index(1, ResultsModel::ParamsColumn)).toString(), QString("n=2048"));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
  }
};

}  // namespace kwb

QTEST_MAIN(kwb::ResultsModelTest)
#include "resultsmodel_test.moc"
