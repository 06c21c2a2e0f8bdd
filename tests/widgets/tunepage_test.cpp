#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <qcustomplot.h>

#include "widgets/metatypes.h"
#include "widgets/tunepage.h"
#include "widgets/workerclient.h"

namespace kwb {

class TunePageTest : public QObject {
  Q_OBJECT

  static std::vector<ParamSpec> specs() {
    return {integerParam("block_size", ParamRole::Launch, 32, 1024, "256", "threads", "", 32),
            choiceParam("pack_size", ParamRole::Launch, {"1", "2", "4", "8"}, "4", "", ""),
            listParam("shape", ParamRole::Launch, 1, 64, 3, "8,8", "", "")};
  }

  static nlohmann::json evaluation(double median, double best, const std::string& block) {
    return {{"status", "ok"},
            {"median_s", median},
            {"score", median},
            {"best_score", best},
            {"cached", false},
            {"run_id", 1},
            {"params", {{"block_size", block}}}};
  }

 private slots:
  void theSpaceOffersEachParameterWithAGuessAtItsValues() {
    WorkerClient worker(KWB_EXECUTABLE, {"--no-store"});
    TunePage page(&worker);
    page.setParams(specs());
    QCOMPARE(page.space()->rowCount(), 2);  // a list such as a shape is not offered
    QCOMPARE(page.space()->item(0, TunePage::ValuesColumn)->text(), QString("32:1024:*2"));
    QCOMPARE(page.space()->item(1, TunePage::ValuesColumn)->text(), QString("1,2,4,8"));
    QVERIFY(page.settings().axes.empty());  // nothing ticked yet
    QPushButton* tuneButton = nullptr;
    for (auto* button : page.findChildren<QPushButton*>())
      if (button->text() == "Tune") tuneButton = button;
    QVERIFY(tuneButton && !tuneButton->isEnabled());  // no device said to be there yet
    page.setReady(true);
    QVERIFY(tuneButton->isEnabled());
    page.tune("pack_size", "2,4");
    QCOMPARE(page.settings().axes, std::vector<std::string>{"pack_size=2,4"});
  }

  void evaluationsArePlottedWithTheBestSoFar() {
    WorkerClient worker(KWB_EXECUTABLE, {"--no-store"});
    TunePage page(&worker);
    page.showEvaluation(1, evaluation(2e-5, 2e-5, "64"));
    page.showEvaluation(2, evaluation(3e-5, 2e-5, "128"));
    page.showEvaluation(3, evaluation(1e-5, 1e-5, "256"));
    QCOMPARE(page.plot()->graph(0)->dataCount(), 3);
    QCOMPARE(page.plot()->graph(1)->dataCount(), 3);
    const auto best = page.plot()->graph(1)->data();
    QCOMPARE(best->at(0)->value, 20.0);
    QCOMPARE(best->at(1)->value, 20.0);  // the worse point leaves the best where it was
    QCOMPARE(best->at(2)->value, 10.0);
  }

  void theReportListsTheFinalistsAndApplyGivesTheBest() {
    WorkerClient worker(KWB_EXECUTABLE, {"--no-store"});
    TunePage page(&worker);
    page.setParams(specs());
    const nlohmann::json report{
        {"kernel", {{"family", "elementwise"}, {"variant", "packed"}}},
        {"device", "Test GPU"},
        {"space", {{"points", 24}, {"valid", 20}}},
        {"evaluations", nlohmann::json::array({1, 2, 3})},
        {"cache_hits", 1},
        {"stopped", "evaluation budget spent"},
        {"finalists",
         {{{"params", {{"block_size", "256"}, {"pack_size", "4"}}},
           {"all_params", {{"block_size", "256"}, {"pack_size", "4"}, {"n", "1048576"}}},
           {"median_s", 1e-5},
           {"interval_s", {0.99e-5, 1.01e-5}},
           {"tied_with_best", true}},
          {{"params", {{"block_size", "512"}, {"pack_size", "4"}}},
           {"median_s", 1.001e-5},
           {"tied_with_best", true},
           {"against_best", {{"verdict", "SAME"}, {"ratio", 1.001}}}},
          {{"params", {{"block_size", "64"}, {"pack_size", "1"}}},
           {"median_s", 2e-5},
           {"tied_with_best", false},
           {"against_best", {{"verdict", "SLOWER"}, {"ratio", 2.0}}}}}}};
    page.showReport(report);
    QCOMPARE(page.finalists()->rowCount(), 3);
    QCOMPARE(page.finalists()->item(0, TunePage::ConfigurationColumn)->text(),
             QString("block_size=256 pack_size=4"));
    QCOMPARE(page.finalists()->item(1, TunePage::VerdictColumn)->text(), QString("1.001x SAME"));
    QCOMPARE(page.finalists()->item(2, TunePage::TiedColumn)->text(), QString("no"));
    QVERIFY2(page.status().contains("2 configurations cannot be told apart"),
             qPrintable(page.status()));
    QVERIFY2(page.status().contains("1 from the history"), qPrintable(page.status()));
    QSignalSpy applied(&page, &TunePage::applyRequested);
    QPushButton* apply = nullptr;
    for (auto* button : page.findChildren<QPushButton*>())
      if (button->text() == "Apply the best") apply = button;
    QVERIFY(apply && apply->isEnabled());
    apply->click();
    QCOMPARE(applied.count(), 1);
    const auto values = applied.at(0).at(0).value<RawParams>();
    QCOMPARE(values.at("block_size"), std::string("256"));
    QCOMPARE(values.at("pack_size"), std::string("4"));

    // The result exports as JSON or as a header of the best, as `kwb tune` writes them.
    QTemporaryDir dir;
    QVERIFY(page.exportResult(dir.filePath("tuned.json")));
    QFile json(dir.filePath("tuned.json"));
    QVERIFY(json.open(QIODevice::ReadOnly));
    QCOMPARE(nlohmann::json::parse(json.readAll().toStdString())["finalists"].size(), 3u);
    QVERIFY(page.exportResult(dir.filePath("tuned.h")));
    QFile header(dir.filePath("tuned.h"));
    QVERIFY(header.open(QIODevice::ReadOnly));
    QVERIFY(header.readAll().contains("inline constexpr long long block_size = 256;"));
  }

  void aStoppedTuningsBestPointCanStillBeApplied() {
    WorkerClient worker(KWB_EXECUTABLE, {"--no-store"});
    TunePage page(&worker);
    const nlohmann::json report{{"space", {{"points", 6}, {"valid", 6}}},
                                {"evaluations",
                                 {evaluation(2e-5, 2e-5, "64"), evaluation(1e-5, 1e-5, "256"),
                                  evaluation(3e-5, 1e-5, "1024")}},
                                {"stopped", "stopped"},
                                {"finalists", nlohmann::json::array()}};
    page.showReport(report);
    QVERIFY2(page.status().contains("Apply takes the best point found"), qPrintable(page.status()));
    QSignalSpy applied(&page, &TunePage::applyRequested);
    for (auto* button : page.findChildren<QPushButton*>())
      if (button->text() == "Apply the best") button->click();
    QCOMPARE(applied.count(), 1);
    QCOMPARE(applied.at(0).at(0).value<RawParams>().at("block_size"), std::string("256"));
  }

  void aTuningWithoutAGpuEndsInOneSentence() {
    WorkerClient worker(KWB_EXECUTABLE, {"--no-store"});
    TunePage page(&worker);
    page.setParams(specs());
    page.setKernelSource([] { return protocol::Kernel{"copy", "vectorized", {}}; });
    page.start();
    QCOMPARE(page.status(), QString("Tick at least one parameter to tune."));
    page.tune("block_size", "64,128");
    QSignalSpy finished(&page, &TunePage::finished);
    page.start();
    QVERIFY(page.running());
    QVERIFY(finished.wait(30000));
    QVERIFY(!page.running());
    // Without a GPU the worker's one sentence; with one, the tuning's summary.
    QVERIFY2(page.status().contains("no CUDA device") || page.status().contains("points valid"),
             qPrintable(page.status()));
  }
};

}  // namespace kwb

QTEST_MAIN(kwb::TunePageTest)
#include "tunepage_test.moc"
