#include <QAction>
#include <QApplication>
#include <QMenuBar>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "widgets/mainwindow.h"

namespace kwb {

class AboutBoxTest : public QObject {
  Q_OBJECT

 private slots:
  // Help > About, through the menu, with the real worker: what kwb --version says (the worker's
  // build and the CUDA pieces it finds, which need no GPU) and the Qt the window runs on.
  void sayWhatTheWorkerAndTheWindowWereBuiltWith() {
    Settings settings{dir_.filePath("h.sqlite"), 0, 0.5, "none", dir_.filePath("kernels")};
    MainWindow window(KWB_EXECUTABLE, settings);
    QAction* about = nullptr;
    for (QAction* menu : window.menuBar()->actions())
      if (menu->menu())
        for (QAction* action : menu->menu()->actions())
          if (action->text() == "About Kernel Workbench") about = action;
    QVERIFY(about);

    QString shown;
    QTimer::singleShot(0, [&] {
      auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
      if (!box) return;
      shown = box->text();
      box->accept();
    });
    about->trigger();
    qInfo().noquote() << shown;
    QVERIFY(shown.contains("Kernel Workbench"));
    QVERIFY(shown.contains("kwb " + QString(KWB_VERSION_STRING)));
    for (const char* part : {"CUDA runtime", "driver", "NVRTC", "CUPTI", "code for: SASS"})
      QVERIFY2(shown.contains(part), part);
    QVERIFY(shown.contains("Qt: " + QString::fromLatin1(qVersion())));
  }

 private:
  QTemporaryDir dir_;
};

}  // namespace kwb

QTEST_MAIN(kwb::AboutBoxTest)
#include "aboutbox_test.moc"
