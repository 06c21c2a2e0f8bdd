// kwb-gui: the desktop workbench. GPU work runs in `kwb worker`, found next to this executable.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QTimer>

#include "core/version.h"
#include "widgets/mainwindow.h"

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
  QCommandLineOption db("db", "the history database (default: kwb's)", "path");
  QCommandLineOption select("select", "select a kernel at start-up", "family/variant");
  QCommandLineOption sweep("sweep", "start a sweep over this axis (repeat for a second)", "axis");
  QCommandLineOption screenshot("screenshot",
                                "save the window as an image once the catalog is shown, or once "
                                "the sweep is done, and quit",
                                "file");
  parser.addOptions({worker, db, select, sweep, screenshot});
  parser.process(app);

  QStringList workerArgs;
  if (parser.isSet(db)) workerArgs << "--db" << parser.value(db);
  kwb::MainWindow window(parser.value(worker), workerArgs);
  window.resize(1500, 860);
  if (parser.isSet(select)) {
    const QStringList parts = parser.value(select).split('/');
    window.selectWhenReady(parts.value(0), parts.value(1), parser.values(sweep));
  }
  if (parser.isSet(screenshot)) {
    const QString file = parser.value(screenshot);
    const auto grab = [&] {
      // Let the last replot and layout settle before grabbing.
      QTimer::singleShot(300, &window, [&] {
        window.grab().save(file);
        QApplication::quit();
      });
    };
    QObject::connect(
        &window, parser.isSet(sweep) ? &kwb::MainWindow::jobEnded : &kwb::MainWindow::catalogShown,
        &window, grab);
  }
  window.show();
  return QApplication::exec();
}
