#include <QAbstractItemModelTester>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

#include <nlohmann/json.hpp>

#include "core/jsoncodec.h"
#include "core/stats.h"
#include "db/baselinestore.h"
#include "db/database.h"
#include "db/runstore.h"
#include "widgets/explaindialog.h"
#include "widgets/explainview.h"
#include "widgets/historymodel.h"
#include "widgets/historypage.h"
#include "widgets/qualitypanel.h"

#include <qcustomplot.h>
#include <QDialog>
#include <QItemSelectionModel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QTableWidget>

namespace kwb {

// The history model over a real database: loading, filtering, sorting, changes and export, all
// through the loader's thread.
class HistoryModelTest : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  QString path_;

  static RunResult run(const std::string& family, const std::string& variant, double seconds,
                       std::int64_t startedAt) {
    RunResult r;
    r.family = family;
    r.variant = variant;
    r.problem.set("n", "1048576");
    r.problem.set("dtype", "f32");
    r.launch.set("block_size", "256");
    r.samples = {seconds, seconds * 1.01, seconds * 0.99};
    r.stats = summarize(r.samples);
    r.bytes = 8 << 20;
    r.bandwidth = static_cast<double>(r.bytes) / r.stats.median;
    r.ceilingBandwidth = 3e12;
    r.verification = {true, true, 0, 1e-6};
    r.deviceUuid = "GPU-test";
    r.startedAt = startedAt;
    return r;
  }

  // Waits for the model's next complete load.
  static void waitLoaded(HistoryModel& model) {
    QSignalSpy loaded(&model, &HistoryModel::loaded);
    QVERIFY(loaded.wait(10000));
  }

 private slots:
  void initTestCase() {
    path_ = dir_.filePath("history.sqlite");
    RunStore store(path_.toStdString());
    DeviceInfo device;
    device.uuid = "GPU-test";
    device.name = "Test GPU";
    store.upsertDevice(device);
    store.insertRun(run("copy", "memcpy", 10e-6, 1000));
    store.insertRun(run("copy", "vectorized", 11e-6, 2000));
    store.insertRun(run("elementwise", "packed", 12e-6, 3000));
    store.insertRun(run("elementwise", "packed", 9e-6, 4000));
  }

  void loadsFiltersAndSortsInTheBackground() {
    HistoryModel model(path_);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    waitLoaded(model);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.ids(), (std::vector<std::int64_t>{4, 3, 2, 1}));  // newest first
    QCOMPARE(model.data(model.index(0, HistoryModel::KernelColumn)).toString(),
             QString("elementwise/packed"));
    QCOMPARE(model.data(model.index(0, HistoryModel::DeviceColumn)).toString(),
             QString("Test GPU"));

    HistoryFilter copies;
    copies.family = "copy";
    model.setFilter(copies);
    waitLoaded(model);
    QCOMPARE(model.rowCount(), 2);

    model.setFilter({});
    waitLoaded(model);
    model.sort(HistoryModel::MedianColumn, Qt::AscendingOrder);
    waitLoaded(model);
    QCOMPARE(model.ids(), (std::vector<std::int64_t>{4, 1, 2, 3}));
    model.sort(HistoryModel::KernelColumn, Qt::DescendingOrder);
    waitLoaded(model);
    QCOMPARE(model.ids(), (std::vector<std::int64_t>{4, 3, 2, 1}));
    QCOMPARE(model.data(model.index(3, HistoryModel::KernelColumn)).toString(),
             QString("copy/memcpy"));
  }

  // Rows past the first page are read when the view shows them, and arrive as a data change.
  void rowsArriveAPageAtATime() {
    QTemporaryDir dir;
    const QString path = dir.filePath("many.sqlite");
    const int runs = HistoryLoader::kPageRows * 3 + 5;
    {
      RunStore store(path.toStdString());
      DeviceInfo device;
      device.uuid = "GPU-test";
      device.name = "Test GPU";
      store.upsertDevice(device);
      Transaction batch(store.database());
      for (int i = 0; i < runs; ++i)
        store.insertRun(run("copy", "memcpy", 1e-5 * (1 + i % 10), 1000 + i));
      batch.commit();
    }
    HistoryModel model(path);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    waitLoaded(model);
    QCOMPARE(model.rowCount(), runs);
    QVERIFY(model.cachedRow(0));
    const int last = runs - 1;
    QVERIFY(!model.cachedRow(last));  // asked for, not there yet
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(changed.wait(10000));
    QCOMPARE(changed.last().at(1).toModelIndex().row(), last);
    const HistoryRow* row = model.cachedRow(last);
    QVERIFY(row);
    QCOMPARE(row->id, model.ids()[static_cast<std::size_t>(last)]);
    QCOMPARE(row->id, std::int64_t{1});  // the oldest, last in newest-first order
  }

  // The free text finds a run by what the table shows (n=2^20), what was typed (1048576), a tag
  // or a note; % and _ are themselves, not wildcards.
  void textFindsRunsByTheirWordsTagsAndNotes() {
    QTemporaryDir dir;
    const QString path = dir.filePath("text.sqlite");
    {
      RunStore store(path.toStdString());
      const auto tagged = store.insertRun(run("copy", "memcpy", 1e-5, 1000));
      store.addTag(tagged, "before_driver_update");
      const auto noted = store.insertRun(run("elementwise", "packed", 1e-5, 2000));
      store.addNote(noted, "100% of the copy ceiling");
      RunResult other = run("elementwise", "naive", 1e-5, 3000);
      other.problem.set("n", "4096");
      store.insertRun(other);
    }
    HistoryModel model(path);
    waitLoaded(model);
    const auto found = [&](const char* text) {
      HistoryFilter filter;
      filter.text = text;
      model.setFilter(filter);
      waitLoaded(model);
      return model.ids();
    };
    QCOMPARE(found("n=2^20"), (std::vector<std::int64_t>{2, 1}));
    QCOMPARE(found("1048576"), (std::vector<std::int64_t>{2, 1}));
    QCOMPARE(found("N=4096"), (std::vector<std::int64_t>{3}));
    QCOMPARE(found("driver"), (std::vector<std::int64_t>{1}));
    QCOMPARE(found("before_driver"), (std::vector<std::int64_t>{1}));
    QCOMPARE(found("e_d"), (std::vector<std::int64_t>{1}));
    QCOMPARE(found("100%"), (std::vector<std::int64_t>{2}));
    QCOMPARE(found("10%"), (std::vector<std::int64_t>{}));
    QCOMPARE(found("packed"), (std::vector<std::int64_t>{2}));
  }

  // The Baseline button marks the one selected run; Compare reads the runs' samples and labels
  // every bar with its verdict against the first.
  void historyPageMarksABaselineAndComparesWithVerdicts() {
    HistoryPage page(path_);
    waitLoaded(*page.model());
    page.table()->selectRow(0);
    QSignalSpy status(&page, &HistoryPage::status);
    page.findChild<QPushButton*>("baselineButton")->click();
    QCOMPARE(status.size(), 1);
    QVERIFY2(status[0][0].toString().contains("is the baseline"),
             qPrintable(status[0][0].toString()));
    {
      RunStore store(path_.toStdString());
      const auto baselines = BaselineStore(store.database()).all();
      QCOMPARE(baselines.size(), std::size_t{1});
      QCOMPARE(baselines[0].runId, page.model()->ids().front());
      BaselineStore(store.database()).clear(baselines[0].runId);
    }
    page.table()->selectAll();
    QSignalSpy plotted(&page, &HistoryPage::plotted);
    page.compareSelection();
    QVERIFY(plotted.wait(10000));
    QStringList labels;
    QCustomPlot* chart = page.currentChart();
    for (int i = 0; i < chart->itemCount(); ++i)
      if (auto* text = qobject_cast<QCPItemText*>(chart->item(i))) labels << text->text();
    QVERIFY2(labels.contains("reference"), qPrintable(labels.join("|")));
    QVERIFY2(labels.filter("x ").size() >= 3, qPrintable(labels.join("|")));

    page.table()->clearSelection();
    page.table()->selectRow(1);
    page.findChild<QPushButton*>("qualityButton")->click();
    auto* dialog = page.findChild<QDialog*>("qualityDialog");
    QVERIFY(dialog);
    const QString text = dialog->findChild<QualityPanel*>()->text();
    QVERIFY2(text.contains("3, spread") && text.contains("only 3 samples"), qPrintable(text));
  }

  // A kernel file's run: the user says whether only its source version is judged against it.
  void aKernelFilesBaselineIsForTheSourceVersionTheUserPicks() {
    QTemporaryDir dir;
    const QString path = dir.filePath("files.sqlite");
    {
      RunStore store(path.toStdString());
      RunResult r = run("user", "copy_vectorized", 10e-6, 1000);
      r.code = KernelCode{"copy_vectorized.cu", "aaaa", "source", "spec"};
      store.insertRun(r);
    }
    for (const auto& [answer, sameSource] :
         {std::pair{QMessageBox::Yes, true}, std::pair{QMessageBox::No, false}}) {
      HistoryPage page(path);
      waitLoaded(*page.model());
      page.table()->selectRow(0);
      page.setSourceVersionAnswer([answer = answer] { return int(answer); });
      page.findChild<QPushButton*>("baselineButton")->click();
      RunStore store(path.toStdString());
      const auto baselines = BaselineStore(store.database()).all();
      QCOMPARE(baselines.size(), std::size_t{1});
      QCOMPARE(baselines[0].sameSource, sameSource);
    }
  }

  // Explain... on two runs recorded on an H100: the tiled transpose without and with padding.
  void explainSaysWhyTwoSelectedRunsDiffer() {
    QTemporaryDir dir;
    const QString path = dir.filePath("explain.sqlite");
    {
      RunStore store(path.toStdString());
      DeviceInfo device;
      device.uuid = "GPU-test";
      device.name = "Test GPU";
      store.upsertDevice(device);
      std::ifstream in(KWB_FIXTURES_DIR "/explain/h100-runs.json");
      for (const auto& recorded : nlohmann::json::parse(in)) {
        RunResult r = runResultFromJson(recorded);
        r.deviceUuid = "GPU-test";
        store.insertRun(r);
      }
    }
    HistoryPage page(path);
    waitLoaded(*page.model());
    QCOMPARE(page.model()->ids().front(), std::int64_t{6});  // newest first
    auto* selection = page.table()->selectionModel();
    for (const int row : {3, 4})  // runs 3 (padding on) and 2 (off)
      selection->select(page.model()->index(row, 0),
                        QItemSelectionModel::Select | QItemSelectionModel::Rows);
    page.findChild<QPushButton*>("explainButton")->click();
    auto* dialog = page.findChild<ExplainDialog*>("explainDialog");
    QVERIFY(dialog);
    const QString text = dialog->view()->readings();
    QVERIFY2(text.contains("run 2: permute/tiled") && text.contains("bank conflicts on loads"),
             qPrintable(text));
    QCOMPARE(dialog->view()->table()->item(0, 0)->text(),
             QString("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"));
  }

  void tagsExportsAndDeletes() {
    HistoryModel model(path_);
    waitLoaded(model);
    const qint64 newest = model.ids().front();
    model.addTag({newest}, "baseline");
    waitLoaded(model);
    QCOMPARE(model.data(model.index(0, HistoryModel::TagsColumn)).toString(), QString("baseline"));

    QSignalSpy exported(&model, &HistoryModel::exported);
    const QString csv = dir_.filePath("runs.csv"), json = dir_.filePath("runs.json");
    model.exportRuns({newest, model.ids()[1]}, csv, ExportFormat::Csv);
    model.exportRuns({newest}, json, ExportFormat::Json);
    QVERIFY(exported.wait(10000));
    if (exported.count() < 2) QVERIFY(exported.wait(10000));
    QCOMPARE(exported.at(0).at(1).toInt(), 2);
    QVERIFY(QFileInfo(csv).size() > 0);
    QVERIFY(QFileInfo(json).size() > 0);

    model.deleteRuns({newest});
    waitLoaded(model);
    QCOMPARE(model.rowCount(), 3);
    QVERIFY(model.ids().front() != newest);
  }

  void aMissingFolderIsReportedNotFatal() {
    HistoryModel model("/nonexistent/folder/history.sqlite");
    QSignalSpy failed(&model, &HistoryModel::failed);
    QVERIFY(failed.wait(10000));
    QCOMPARE(model.rowCount(), 0);
  }
};

}  // namespace kwb

QTEST_MAIN(kwb::HistoryModelTest)
#include "historymodel_test.moc"
