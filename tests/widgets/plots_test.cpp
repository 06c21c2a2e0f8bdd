#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <qcustomplot.h>

#include <algorithm>

#include "core/stats.h"
#include "core/waves.h"
#include "widgets/chartexport.h"
#include "widgets/compareplot.h"
#include "widgets/heatmapplot.h"
#include "widgets/historyplot.h"
#include "widgets/rooflineplot.h"
#include "widgets/sweepplot.h"
#include "widgets/wavesplot.h"

namespace kwb {

// What the charts draw from the data they are given, and that exports write real files.
class PlotsTest : public QObject {
  Q_OBJECT

 private:
  static RunResult point(std::int64_t n, int block, double seconds) {
    RunResult r;
    r.family = "copy";
    r.variant = "vectorized";
    r.problem.set("n", std::to_string(n));
    r.launch.set("block_size", std::to_string(block));
    r.samples = {seconds, seconds * 1.1, seconds * 0.9};
    r.stats = summarize(r.samples);
    r.bytes = static_cast<std::uint64_t>(8 * n);
    r.bandwidth = static_cast<double>(r.bytes) / r.stats.median;
    r.ceilingBandwidth = 3e12;
    r.peakBandwidth = 3.35e12;
    return r;
  }

  // 40 samples spread evenly over seconds * (1 -+ spread).
  static RunResult steadyPoint(std::int64_t n, int block, double seconds, double spread) {
    RunResult r = point(n, block, seconds);
    r.samples.clear();
    for (int i = 0; i < 40; ++i) r.samples.push_back(seconds * (1 + spread * ((i % 5) - 2) / 2));
    r.stats = summarize(r.samples);
    r.bandwidth = static_cast<double>(r.bytes) / r.stats.median;
    return r;
  }

  static HistoryPoint historyRow(std::int64_t id, int series, std::int64_t at, double seconds) {
    HistoryPoint row;
    row.id = id;
    row.startedAt = at;
    row.kernel = "copy/vectorized";
    row.series = QString("series %1").arg(series);
    row.seriesId = series;
    row.median = seconds;
    row.min = seconds * 0.9;
    row.max = seconds * 1.1;
    row.bandwidth = 1e12;
    row.ceilingFraction = 0.5;
    return row;
  }

 private slots:
  void sweepPlotBindsPointsAndSkipsUntimedRuns() {
    SweepPlot plot;
    std::vector<RunResult> runs = {point(1 << 20, 256, 8e-6), point(1 << 22, 256, 20e-6)};
    RunResult failed = point(1 << 24, 256, 0);
    failed.status = RunStatus::Failed;
    failed.stats = {};
    runs.push_back(failed);
    plot.setRuns(runs, "n", true);
    QCOMPARE(plot.points().size(), std::size_t{2});
    QCOMPARE(plot.points()[1].x, double(1 << 22));
    QCOMPARE(plot.points()[1].seconds, 20e-6);
    QCOMPARE(plot.plot()->xAxis->scaleType(), QCPAxis::stLogarithmic);
  }

  // tile_size x padding: one line per padding value, never one line jumping between them.
  void sweepPlotDrawsASeriesPerValueOfTheSecondAxis() {
    SweepPlot plot;
    std::vector<RunResult> runs;
    for (int tile : {16, 32, 64})
      for (const char* padding : {"off", "on"}) {
        RunResult r = point(1 << 22, 256, padding == std::string("on") ? 10e-6 : 20e-6);
        r.launch.set("tile_size", std::to_string(tile));
        r.launch.set("padding", padding);
        runs.push_back(r);
      }
    plot.setRuns(runs, "tile_size", false, {}, "padding");
    QCOMPARE(plot.seriesCount(), 2);
    QCOMPARE(plot.points().size(), std::size_t{6});
    // Each runtime graph holds the three tile sizes of one padding value, in order.
    for (int g = 0; g < plot.plot()->graphCount(); ++g) {
      QCPGraph* graph = plot.plot()->graph(g);
      if (!graph->name().startsWith("runtime")) continue;
      QCOMPARE(graph->data()->size(), 3);
      const double first = graph->data()->at(0)->value;
      for (int i = 1; i < 3; ++i) QCOMPARE(graph->data()->at(i)->value, first);
    }
    QStringList names;
    for (int i = 0; i < plot.plot()->legend->itemCount(); ++i)
      if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot.plot()->legend->item(i)))
        names << item->plottable()->name();
    QVERIFY2(names.contains("runtime, padding=off") && names.contains("bandwidth, padding=on"),
             qPrintable(names.join(" | ")));
    // The legend sits in the plot layout, outside the axis rect: it cannot cover data.
    QCOMPARE(plot.plot()->legend->layout(), static_cast<QCPLayout*>(plot.plot()->plotLayout()));
    plot.setRuns(runs, "tile_size", false);  // one axis again: one series
    QCOMPARE(plot.seriesCount(), 1);
  }

  void heatmapHasACellPerPoint() {
    HeatmapPlot plot;
    std::vector<RunResult> runs;
    for (int n : {1 << 20, 1 << 22})
      for (int block : {128, 256, 512}) runs.push_back(point(n, block, 1e-5));
    plot.setRuns(runs, "n", "block_size", "elements", "threads");
    QCOMPARE(plot.cellCount(), 6);

    plot.resize(700, 400);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.plot()->replot();
    QCustomPlot* chart = plot.plot();
    QTest::mouseMove(chart, QPoint(static_cast<int>(chart->xAxis->coordToPixel(1)),
                                   static_cast<int>(chart->yAxis->coordToPixel(2))));
    QString shown;
    for (int i = 0; i < chart->itemCount(); ++i)
      if (auto* text = qobject_cast<QCPItemText*>(chart->item(i)); text && text->visible())
        shown += text->text() + "|";
    QVERIFY2(shown.contains("n [elements] = 4194304, block_size [threads] = 512"),
             qPrintable(shown));
  }

  // Cells whose interval overlaps the best one's are outlined; all of them: the scale says noise.
  void heatmapMarksCellsTiedWithTheBest() {
    HeatmapPlot plot;
    std::vector<RunResult> runs;
    for (int block : {128, 256, 512}) {
      const double seconds = block == 128 ? 12e-6 : block == 256 ? 10e-6 : 10.02e-6;
      runs.push_back(steadyPoint(1 << 20, block, seconds, 0.01));
    }
    plot.setRuns(runs, "n", "block_size");
    QCOMPARE(plot.tiedCellCount(), 2);
    QVERIFY(!plot.rangeIsNoise());
    for (auto& run : runs)
      run = steadyPoint(1 << 20, std::stoi(run.launch.get("block_size")), 10e-6, 0.01);
    plot.setRuns(runs, "n", "block_size");
    QCOMPARE(plot.tiedCellCount(), 3);
    QVERIFY(plot.rangeIsNoise());
  }

  void sweepPlotRingsPointsTiedWithTheBest() {
    SweepPlot plot;
    plot.setRuns({steadyPoint(1 << 20, 128, 10e-6, 0.01), steadyPoint(1 << 20, 256, 10.01e-6, 0.01),
                  steadyPoint(1 << 20, 512, 14e-6, 0.01)},
                 "block_size", false);
    QCOMPARE(plot.tiedPointCount(), 2);
  }

  // With the runs' samples: the interval on every bar and the verdict against the first.
  void comparePlotShowsIntervalsAndVerdicts() {
    std::vector<HistoryPoint> rows;
    std::map<std::int64_t, RunResult> runs;
    const double times[] = {10e-6, 11e-6, 10e-6};
    for (int i = 0; i < 3; ++i) {
      rows.push_back(historyRow(i + 1, i, 1000, times[i]));
      runs[i + 1] = steadyPoint(1 << 20, 256, times[i], 0.002);
    }
    ComparePlot plot;
    plot.setMetric(ChartMetric::Runtime);
    plot.setRows(rows, judgeRuns(rows, runs));
    QCOMPARE(plot.verdictLabels(), QStringList({"reference", "1.100x SLOWER", "1.000x SAME"}));
    QVERIFY(plot.plot()->xAxis->label().contains("95 % interval"));
    plot.setRows({rows[0], rows[1]});  // without samples: no verdicts
    QVERIFY(plot.verdictLabels().isEmpty());
  }

  // A sweep's runs under the measured roofs, coloured by the swept value; one that claims more
  // than the DRAM roof allows is a red cross and named in the note.
  void rooflinePlotPlacesRunsUnderTheRoofsAndFlagsOnesAbove() {
    RooflinePlot plot;
    std::vector<RunResult> runs;
    for (const double seconds : {60e-6, 50e-6, 30e-6}) {  // the last beats 3 TB/s: impossible
      RunResult r = point(1 << 24, seconds == 60e-6 ? 128 : 256, seconds);
      r.bytes = 8ull << 24;
      r.flops = 5.0 * (1 << 24);
      runs.push_back(r);
    }
    RunResult copy = point(1 << 24, 256, 50e-6);
    copy.flops = 0;  // no arithmetic: not placed
    runs.push_back(copy);
    plot.setRuns(runs, "block_size");
    QCOMPARE(plot.pointCount(), 3);
    QVERIFY(plot.note().contains("kwb devices --ceilings"));  // no roofs yet
    plot.setCeilings({{"dram", 3e12, 0, 0}, {"l2", 6e12, 1980, 0}, {"fp32", 60e12, 1980, 0}});
    QCOMPARE(plot.aboveRoofCount(), 1);
    QVERIFY2(plot.note().contains("above the roof"), qPrintable(plot.note()));
    QStringList names;
    for (int g = 0; g < plot.plot()->graphCount(); ++g) names << plot.plot()->graph(g)->name();
    QVERIFY2(names.contains("DRAM 3.00 TB/s") && names.contains("block_size=128") &&
                 names.contains("block_size=256"),
             qPrintable(names.join("|")));
  }

  void rooflinePlotJoinsALessonsRunsFromBaselineToStep() {
    RooflinePlot plot;
    std::vector<RunResult> runs;
    for (const double seconds : {90e-6, 60e-6}) {
      RunResult r = point(1 << 24, 256, seconds);
      r.variant = seconds > 80e-6 ? "naive" : "packed";
      r.flops = 5.0 * (1 << 24);
      runs.push_back(r);
    }
    plot.setRuns(runs, {}, true);
    QCOMPARE(plot.pointCount(), 2);
    QCOMPARE(plot.countedCount(), 0);
    runs.back().metrics = {{"dram__bytes_read.sum", 4.0 * (1 << 24), "B", ""},
                           {"dram__bytes_write.sum", 4.0 * (1 << 24), "B", ""}};
    for (const char* p : {"h", "f", "d"})
      for (const char* op : {"add", "mul", "fma"})
        runs.back().metrics.push_back(
            {std::string("smsp__sass_thread_inst_executed_op_") + p + op + "_pred_on.sum", 1e7, "",
             ""});
    plot.setRuns(runs, {}, true);
    QCOMPARE(plot.countedCount(), 1);
    QStringList names;
    for (int g = 0; g < plot.plot()->graphCount(); ++g) names << plot.plot()->graph(g)->name();
    QVERIFY2(names.contains("1. naive") && names.contains("2. packed"),
             qPrintable(names.join("|")));
    auto* path = qobject_cast<QCPCurve*>(plot.plot()->plottable(0));
    QVERIFY(path);
    QCOMPARE(path->dataCount(), 2);
  }

  void wavesPlotDrawsTheTailAndTheSawToothOfASweep() {
    WavesPlot plot;
    std::vector<RunResult> runs;
    for (long long grid = 600; grid <= 4000; grid += 200) {
      RunResult r = point(grid * 256, 256, 1e-6 * static_cast<double>(grid) / 100);
      WaveLaunch l{grid, 256, 8, "threads", 132};
      recordWaves(r.derived, {l});
      runs.push_back(r);
    }
    plot.setRuns(runs, 132, "n");
    QCOMPARE(plot.wavesDrawn(), 4);  // 4000 blocks: 3 full waves of 1056 and a tail
    QVERIFY2(plot.sentence().contains("the last wave holds 832 blocks"),
             qPrintable(plot.sentence()));
    QCOMPARE(plot.predictedPoints(), static_cast<int>(runs.size()));
    auto* map = qobject_cast<QCPColorMap*>(plot.plot()->plottable(0));
    QVERIFY(map);
    QCOMPARE(map->data()->cell(0, 3), 0.5);  // SM 0 runs 7 of its 8 slots in the tail
    QCOMPARE(map->data()->cell(0, 0), 1.0);  // and all 8 before
    plot.setRuns(runs, 132, "n", 0);         // the run selected: 600 blocks, under one wave
    QVERIFY2(plot.sentence().contains("600 blocks of 256 threads"), qPrintable(plot.sentence()));
    QCOMPARE(plot.wavesDrawn(), 1);
    plot.setRuns({runs.front()}, 132);  // one run: no sweep below
    QCOMPARE(plot.predictedPoints(), 0);
    RunResult before = runs.front();
    before.derived = {};
    plot.setRuns({before}, 132);
    QVERIFY(plot.sentence().contains("no waves recorded"));
  }

  void historyPlotDrawsOneLinePerSeries() {
    std::vector<HistoryPoint> rows;
    for (int i = 0; i < 6; ++i) rows.push_back(historyRow(i, i % 2, 1000 * i, 1e-5));
    HistoryPlot plot;
    plot.setSeries(historySeries(rows));
    QCOMPARE(plot.seriesCount(), 2);
    QCOMPARE(plot.pointCount(), 6);
  }

  // A series too long to draw point by point keeps each slice's fastest and slowest run, in time
  // order: an outlier anywhere stays on the chart.
  void historySeriesThinsLongSeriesKeepingTheExtremes() {
    std::vector<HistoryPoint> rows;
    for (int i = 0; i < 10'000; ++i)
      rows.push_back(historyRow(i, 0, 1000 * (10'000 - i), 1e-5 * (1 + 0.01 * (i % 7))));
    rows[4321].median = 9e-5;  // one slow run
    const HistorySeriesSet set = historySeries(rows, 10, 100);
    QVERIFY(set.thinned);
    QCOMPARE(set.series.size(), std::size_t{1});
    const HistorySeries& s = set.series.front();
    QCOMPARE(s.runs, std::size_t{10'000});
    QCOMPARE(s.at.size(), 100);
    QVERIFY(std::is_sorted(s.at.begin(), s.at.end()));
    QCOMPARE(*std::max_element(s.median.begin(), s.median.end()), 9e-5);
    QCOMPARE(*std::min_element(s.median.begin(), s.median.end()), 1e-5);
    // The series with the most runs are kept; the rest are counted.
    std::vector<HistoryPoint> many;
    for (int i = 0; i < 30; ++i)
      for (int k = 0; k <= i; ++k) many.push_back(historyRow(i * 100 + k, i, 1000 * k, 1e-5));
    const HistorySeriesSet top = historySeries(many, 10, 100);
    QCOMPARE(top.series.size(), std::size_t{10});
    QCOMPARE(top.hidden, std::size_t{20});
    QCOMPARE(top.series.front().runs, std::size_t{30});
    QVERIFY(!top.thinned);
  }

  void historyPlotReadsOutThePointUnderTheMouse() {
    std::vector<HistoryPoint> rows;
    for (int i = 0; i < 3; ++i)
      rows.push_back(historyRow(i, 0, 1'700'000'000'000 + 60'000 * i, 1e-5));
    HistoryPlot plot;
    plot.resize(700, 400);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.setSeries(historySeries(rows));
    QCustomPlot* chart = plot.plot();
    const double x = chart->xAxis->coordToPixel(1'700'000'060.0);
    const double y = chart->yAxis->coordToPixel(1000.0);  // 1e12 B/s
    QTest::mouseMove(chart, QPoint(static_cast<int>(x), static_cast<int>(y)));
    QString shown;
    for (int i = 0; i < chart->itemCount(); ++i)
      if (auto* text = qobject_cast<QCPItemText*>(chart->item(i)); text && text->visible())
        shown += text->text();
    QVERIFY2(shown.contains("1000 GB/s") && shown.contains("series 0"), qPrintable(shown));
  }

  void comparePlotHasABarPerRun() {
    std::vector<HistoryPoint> rows;
    for (int i = 0; i < 3; ++i) rows.push_back(historyRow(i, i, 1000, 1e-5 * (i + 1)));
    ComparePlot plot;
    plot.setRows({rows[0], rows[2]});
    QCOMPARE(plot.barCount(), 2);
    QVERIFY(!plot.plot()->legend->visible());
  }

  // After `kwb db merge`, the same kernels on two attendees' GPUs: a colour and a legend entry
  // each, and each configuration's runs side by side under one label.
  void comparePlotColoursRunsByDevice() {
    std::vector<HistoryPoint> rows;
    for (int i = 0; i < 4; ++i) {
      rows.push_back(historyRow(i, 0, 1000, 1e-5 * (i + 1)));
      rows.back().device = i % 2 ? "NVIDIA L4" : "NVIDIA H100 80GB HBM3";
      rows.back().launch = i < 2 ? "block_size=128" : "block_size=256";
    }
    ComparePlot plot;
    plot.setRows(rows);
    QCOMPARE(plot.barCount(), 4);
    QVERIFY(plot.plot()->legend->visible());
    QCOMPARE(plot.plot()->plottable(0)->name(), QString("NVIDIA H100 80GB HBM3"));
    QCOMPARE(plot.plot()->plottable(1)->name(), QString("NVIDIA L4"));
    auto* h100 = qobject_cast<QCPBars*>(plot.plot()->plottable(0));
    auto* l4 = qobject_cast<QCPBars*>(plot.plot()->plottable(1));
    QCOMPARE(h100->dataCount(), 2);
    // One label per configuration, each device's bar beside the other's.
    auto* ticker = dynamic_cast<QCPAxisTickerText*>(plot.plot()->xAxis->ticker().data());
    QVERIFY(ticker);
    QCOMPARE(ticker->ticks().size(), 2);
    QVERIFY(ticker->ticks().first().contains("block_size=128"));
    QCOMPARE(l4->data()->at(0)->key - h100->data()->at(0)->key, 1.0);
    QCOMPARE(ticker->ticks().firstKey(), (h100->data()->at(0)->key + l4->data()->at(0)->key) / 2);
  }

  void exportsWriteNonEmptyFiles() {
    QTemporaryDir dir;
    SweepPlot plot;
    plot.setRuns({point(1 << 20, 256, 8e-6), point(1 << 22, 256, 20e-6)}, "n", true);
    for (const QString name : {"chart.png", "chart.jpg", "chart.pdf"}) {
      const QString path = dir.filePath(name);
      QVERIFY2(saveChart(plot.plot(), path, 800, 500), qPrintable(name));
      QVERIFY2(QFileInfo(path).size() > 1000, qPrintable(name));
    }
    QVERIFY(!saveChart(plot.plot(), dir.filePath("chart.bmpx"), 800, 500));
  }
};

}  // namespace kwb

QTEST_MAIN(kwb::PlotsTest)
#include "plots_test.moc"
