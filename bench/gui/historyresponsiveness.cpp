// Measures how long the GUI thread is ever blocked while the history page starts on a large
// history, filters it, sorts it and plots a selection. A 1 ms timer on the GUI thread records the
// gaps between its ticks: a gap is the time the event loop could not run.
//
//   kwb-history-bench [--runs 100000] [--db PATH]
#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <functional>

#include "syntheticdb.h"
#include "widgets/historymodel.h"
#include "widgets/historypage.h"

namespace {

class StallMonitor : public QObject {
 public:
  StallMonitor() {
    timer_.setTimerType(Qt::PreciseTimer);
    timer_.setInterval(1);
    connect(&timer_, &QTimer::timeout, this, [this] {
      const double gap = static_cast<double>(clock_.nsecsElapsed()) * 1e-6;
      if (gap > longest_) longest_ = gap;
      clock_.restart();
    });
  }
  void start() {
    longest_ = 0;
    clock_.start();
    timer_.start();
  }
  double longestMs() const { return longest_; }

 private:
  QTimer timer_;
  QElapsedTimer clock_;
  double longest_ = 0;
};

// Runs the event loop until done() holds; returns the elapsed milliseconds.
double waitUntil(const std::function<bool()>& done) {
  QElapsedTimer clock;
  clock.start();
  while (!done()) QApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
  return static_cast<double>(clock.nsecsElapsed()) * 1e-6;
}

}  // namespace

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM",
          qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
  QApplication app(argc, argv);
  QCommandLineParser parser;
  QCommandLineOption runsOption("runs", "synthetic runs in the history", "n", "100000");
  QCommandLineOption dbOption("db", "history database (made when missing)", "path");
  parser.addOptions({runsOption, dbOption});
  parser.addHelpOption();
  parser.process(app);

  QTemporaryDir tmp;
  const QString path = parser.isSet(dbOption) ? parser.value(dbOption) : tmp.filePath("h.sqlite");
  const auto runs = parser.value(runsOption).toULongLong();
  if (!QFileInfo::exists(path)) {
    QElapsedTimer clock;
    clock.start();
    kwb::writeSyntheticHistory(path.toStdString(), runs);
    std::printf("wrote %llu synthetic runs in %.1f s\n", runs,
                static_cast<double>(clock.nsecsElapsed()) * 1e-9);
  }

  StallMonitor monitor;
  struct Row {
    const char* step;
    double wallMs, stallMs;
  };
  std::vector<Row> rows;
  const auto measure = [&](const char* step, const std::function<void()>& action,
                           const std::function<bool()>& done) {
    monitor.start();
    QElapsedTimer clock;
    clock.start();
    action();
    // A step done entirely inside action() blocks the loop for all of it, with no tick to see.
    const double synchronous = static_cast<double>(clock.nsecsElapsed()) * 1e-6;
    waitUntil(done);
    const double wall = static_cast<double>(clock.nsecsElapsed()) * 1e-6;
    // Painting what arrived happens in the loop after: keep it turning so the monitor sees it.
    QElapsedTimer settle;
    settle.start();
    waitUntil([&] { return settle.elapsed() > 150; });
    rows.push_back({step, wall, std::max(synchronous, monitor.longestMs())});
  };

  kwb::HistoryPage* page = nullptr;
  bool loaded = false;
  measure(
      "start-up: open the history page, count every run, show the newest",
      [&] {
        page = new kwb::HistoryPage(path);
        QObject::connect(page->model(), &kwb::HistoryModel::loaded, [&] { loaded = true; });
        page->resize(1500, 900);
        page->show();
      },
      [&] { return loaded; });
  const int total = page->model()->rowCount();

  const auto reloadStep = [&](const char* step, const std::function<void()>& action) {
    loaded = false;
    measure(step, action, [&] { return loaded; });
  };
  // Typed text filters once the typing rests; Enter filters at once, as measured here.
  auto* text = page->findChild<QLineEdit*>("textFilter");
  const auto typeAndEnter = [&](const QString& typed) {
    text->setText(typed);
    QMetaObject::invokeMethod(text, "returnPressed");
  };
  reloadStep("filter: free text 'relu'", [&] { typeAndEnter("relu"); });
  const int filtered = page->model()->rowCount();
  reloadStep("filter: cleared again", [&] { typeAndEnter(""); });
  reloadStep("sort: by bandwidth", [&] {
    page->table()->sortByColumn(kwb::HistoryModel::BandwidthColumn, Qt::DescendingOrder);
  });
  auto* family = page->findChild<QComboBox*>("familyFilter");
  reloadStep("filter: family 'elementwise', sorted by bandwidth",
             [&] { family->setCurrentIndex(family->findText("elementwise")); });
  reloadStep("filter: family cleared again", [&] { family->setCurrentIndex(0); });
  measure(
      "scroll: to the middle row, its cells shown",
      [&] { page->table()->scrollTo(page->model()->index(total / 2, 0)); },
      [&] { return page->model()->cachedRow(total / 2) != nullptr; });

  const auto selectRows = [&](int count) {
    auto* selection = page->table()->selectionModel();
    selection->clearSelection();
    const auto* model = page->model();
    selection->select(QItemSelection(model->index(0, 0), model->index(count - 1, 0)),
                      QItemSelectionModel::Select | QItemSelectionModel::Rows);
  };
  bool plotted = false;
  QObject::connect(page, &kwb::HistoryPage::plotted, [&] { plotted = true; });
  const auto plotStep = [&](const char* step, const std::function<void()>& action) {
    plotted = false;
    measure(step, action, [&] { return plotted; });
  };
  plotStep("plot over time: 10,000 selected runs", [&] {
    selectRows(std::min(total, 10'000));
    page->plotSelection();
  });
  measure(
      "select every run", [&] { page->table()->selectAll(); }, [] { return true; });
  plotStep("plot over time: every run", [&] { page->plotSelection(); });
  plotStep("compare: 20 selected runs", [&] {
    selectRows(std::min(total, 20));
    page->compareSelection();
  });

  std::printf("history of %d runs (%d match 'relu')\n\n", total, filtered);
  std::printf("| step | wall time | longest GUI-thread stall |\n|---|---|---|\n");
  for (const auto& row : rows)
    std::printf("| %s | %.0f ms | %.1f ms |\n", row.step, row.wallMs, row.stallMs);
  delete page;
  return 0;
}
