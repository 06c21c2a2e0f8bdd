// kwb-gui: the desktop workbench. GPU work runs in `kwb worker`, found next to this executable.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QTimer>

#include "core/version.h"
#include "widgets/historypage.h"
#include "widgets/mainwindow.h"
#include "widgets/sassview.h"
#include "widgets/tunepage.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("Kernel Workbench");
  QApplication::setOrganizationName("kwb");
  QApplication::setApplicationVersion(QString::fromUtf8(kwb::kAppVersion));

  QCommandLineParser parser;
  parser.setApplicationDescription("Kernel Workbench: explore CUDA kernels");
  parser.addHelpOption();
  parser.addVersionOption();
  QCommandLineOption worker("worker", "the kwb executable that runs GPU jobs", "path",
                            QDir(QApplication::applicationDirPath()).filePath("kwb"));
  QCommandLineOption db("db", "the history database for this session (default: the settings')",
                        "path");
  QCommandLineOption host("host",
                          "run the jobs on this GPU server for this session, through your ssh "
                          "(default: the settings')",
                          "user@server");
  QCommandLineOption devices("devices",
                             "share sweeps and tunings among these GPUs for this session, a "
                             "worker each: all, or 0,1 (default: the settings')",
                             "gpus");
  QCommandLineOption select("select", "select a kernel at start-up", "family/variant");
  QCommandLineOption kernel("kernel", "open a kernel file at start-up", "file.cu");
  QCommandLineOption sweep("sweep", "start a sweep over this axis (repeat for a second)", "axis");
  QCommandLineOption history(
      "history", "open the history filtered by this text, its runs plotted over time", "text");
  QCommandLineOption historyCompare(
      "history-compare",
      "open the history filtered by this text, its runs compared side by side by device", "text");
  QCommandLineOption view(
      "view",
      "the view the screenshot shows: sweep, heatmap, roofline, waves, explain, results, "
      "history, source, sass, lesson, editor or tune",
      "name");
  QCommandLineOption tune("tune",
                          "tune this parameter over these values once the catalog is shown, "
                          "name=values (repeat for more)",
                          "axis");
  QCommandLineOption tuneBudget("tune-budget", "the tuning's budget: evaluations or 90s", "budget");
  QCommandLineOption compare("compare", "the variant the SASS view compares with", "variant");
  QCommandLineOption metrics("metrics",
                             "hardware metrics for the sweep: sets (memory, occupancy, ...) or "
                             "Nsight Compute names, comma separated",
                             "sets");
  QCommandLineOption screenshot("screenshot",
                                "save the window as an image once the catalog is shown, the sweep "
                                "is done or the history is plotted, and quit",
                                "file");
  QCommandLineOption report(
      "report", "write a report (.pdf or .html) of the sweep once it is done, and quit", "file");
  QCommandLineOption reportPages("report-pages",
                                 "with --report: also save the report's pages as PNG images, "
                                 "file-1.png, file-2.png, ...");
  QCommandLineOption lesson("lesson", "run this lesson once the catalog is shown", "id");
  QCommandLineOption predict("predict",
                             "the prediction for --lesson: a speed-up, or microseconds where the "
                             "lesson has no baseline",
                             "value", "1");
  parser.addOptions({worker, db, host, devices, select, kernel, sweep, history, historyCompare,
                     view, compare, metrics, screenshot, report, reportPages, lesson, predict, tune,
                     tuneBudget});
  parser.process(app);

  kwb::Settings settings = kwb::Settings::load();
  // This session only: Settings are saved only from the Settings dialog.
  if (parser.isSet(db)) settings.databasePath = parser.value(db);
  if (parser.isSet(host)) settings.host = parser.value(host);
  if (parser.isSet(devices)) settings.devices = parser.value(devices);
  kwb::MainWindow window(parser.value(worker), settings);
  window.resize(1500, 860);
  if (parser.isSet(metrics)) window.setMetrics(parser.value(metrics));
  if (parser.isSet(select)) {
    const QStringList parts = parser.value(select).split('/');
    window.selectWhenReady(parts.value(0), parts.value(1), parser.values(sweep));
  }
  if (parser.isSet(kernel)) window.openKernelWhenReady(parser.value(kernel), parser.values(sweep));
  if (parser.isSet(compare)) {
    const QString variant = parser.value(compare);
    QObject::connect(&window, &kwb::MainWindow::catalogShown, &window, [&window, variant] {
      if (!window.sassView()->setCompareVariant(variant))
        qWarning("the selected family has no variant '%s'", qPrintable(variant));
    });
  }
  if (parser.isSet(tune)) {
    const QStringList axes = parser.values(tune);
    const QString budget = parser.value(tuneBudget);
    QObject::connect(&window, &kwb::MainWindow::catalogShown, &window, [&window, axes, budget] {
      window.showView("tune");
      for (const QString& axis : axes)
        window.tunePage()->tune(axis.section('=', 0, 0), axis.section('=', 1));
      if (!budget.isEmpty()) window.tunePage()->setBudget(budget);
      window.tunePage()->start();
    });
  }
  if (parser.isSet(screenshot)) {
    const QString file = parser.value(screenshot), shown = parser.value(view);
    // Copies, not references: the connections outlive this block.
    const auto grab = [&window, file, shown] {
      if (!shown.isEmpty() && !window.showView(shown))
        qWarning(
            "no view '%s'; the views are sweep, heatmap, roofline, waves, explain, results, "
            "history, source, sass, lesson, editor, tune",
            qPrintable(shown));
      // Let the last replot and layout settle before grabbing.
      QTimer::singleShot(300, &window, [&window, file] {
        if (!window.grab().save(file)) qWarning("could not write %s", qPrintable(file));
        QApplication::quit();
      });
    };
    if (parser.isSet(history) || parser.isSet(historyCompare)) {
      QObject::connect(window.historyPage(), &kwb::HistoryPage::plotted, &window, grab);
    } else if (shown == "sass") {
      // The machine code comes from the worker after the view is shown.
      QObject::connect(window.sassView(), &kwb::SassView::settled, &window, grab);
      QObject::connect(&window, &kwb::MainWindow::catalogShown, &window,
                       [&window] { window.showView("sass"); });
    } else if (parser.isSet(tune)) {
      QObject::connect(window.tunePage(), &kwb::TunePage::finished, &window, grab);
    } else if (parser.isSet(sweep) || parser.isSet(lesson)) {
      QObject::connect(&window, &kwb::MainWindow::jobEnded, &window, grab);
    } else {
      QObject::connect(&window, &kwb::MainWindow::catalogShown, &window, grab);
    }
  }
  if (parser.isSet(report)) {
    const QString file = parser.value(report);
    const bool pages = parser.isSet(reportPages);
    QObject::connect(&window, &kwb::MainWindow::jobEnded, &window, [&window, file, pages] {
      // After the last replot, as for a screenshot.
      QTimer::singleShot(300, &window, [&window, file, pages] {
        const kwb::Report content = window.report();
        if (!kwb::writeReport(content, file)) qWarning("could not write %s", qPrintable(file));
        if (pages) {
          const QString stem = file.left(file.lastIndexOf('.'));
          int n = 0;
          for (const QImage& page : kwb::reportPages(content, 110))
            if (!page.save(QString("%1-%2.png").arg(stem).arg(++n)))
              qWarning("could not write the pages of %s", qPrintable(file));
        }
        QApplication::quit();
      });
    });
  }
  if (parser.isSet(lesson)) {
    const QString id = parser.value(lesson);
    const double prediction = parser.value(predict).toDouble();
    QObject::connect(&window, &kwb::MainWindow::catalogShown, &window, [&window, id, prediction] {
      if (!window.startLesson(id, prediction)) qWarning("no lesson '%s'", qPrintable(id));
    });
  }
  if (parser.isSet(history)) window.showHistory(parser.value(history));
  if (parser.isSet(historyCompare)) window.showHistory(parser.value(historyCompare), true);
  window.show();
  return QApplication::exec();
}
