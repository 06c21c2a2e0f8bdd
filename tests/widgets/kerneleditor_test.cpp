#include <Qsci/qsciscintilla.h>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "core/error.h"
#include "db/runstore.h"
#include "widgets/codedialog.h"
#include "widgets/kerneleditor.h"
#include "widgets/mainwindow.h"

namespace kwb {

class KernelEditorTest : public QObject {
  Q_OBJECT

  QString write(const QString& name, const QByteArray& text) {
    const QString path = dir_.filePath(name);
    QFile file(path);
    file.open(QIODevice::WriteOnly | QIODevice::Truncate);
    file.write(text);
    return path;
  }
  static QByteArray fixture(const char* name) {
    QFile file(QString(KWB_FIXTURES_DIR "/kernels/") + name);
    file.open(QIODevice::ReadOnly);
    return file.readAll();
  }

 private slots:
  void opensSavesAndFollowsTheFileOnDisk() {
    const QString path = write("k.cu", "// one\n");
    KernelEditor editor;
    QString error;
    QVERIFY(editor.open(path, &error));
    QCOMPARE(editor.text(), QString("// one\n"));
    QVERIFY(!editor.isModified());
    QVERIFY(!editor.open(dir_.filePath("missing.cu"), &error));
    QVERIFY(error.contains("cannot be read"));
    QCOMPARE(editor.path(), path);  // still the one it had

    // Another editor writes: with no changes here, the file is loaded again.
    QSignalSpy reloaded(&editor, &KernelEditor::reloaded);
    write("k.cu", "// two, longer\n");
    QVERIFY(reloaded.wait(5000));
    QCOMPARE(editor.text(), QString("// two, longer\n"));

    // With changes here, theirs is offered, not loaded.
    editor.scintilla()->setText("// mine\n");
    QVERIFY(editor.isModified());
    write("k.cu", "// three\n");
    QTest::qWait(500);
    QCOMPARE(reloaded.count(), 1);
    QCOMPARE(editor.text(), QString("// mine\n"));
    auto* theirs = editor.findChild<QPushButton*>();
    QVERIFY(theirs);
    QTRY_VERIFY(theirs->isVisible() || !editor.isVisible());

    QVERIFY(editor.save(&error));
    QVERIFY(!editor.isModified());
    QFile saved(path);
    saved.open(QIODevice::ReadOnly);
    QCOMPARE(saved.readAll(), QByteArray("// mine\n"));
    QTest::qWait(300);
    QCOMPARE(reloaded.count(), 1);  // its own save is not a change from outside
  }

  void diagnosticsMarkTheirLinesOfThisFileOnly() {
    const QString path = write("d.cu", "a\nb\nc\nd\n");
    KernelEditor editor;
    QString error;
    QVERIFY(editor.open(path, &error));
    editor.setDiagnostics({{path.toStdString(), 3, 2, "error", "identifier \"c\" is undefined"},
                           {"/else/where.cu", 1, 1, "error", "not ours"},
                           {"d.cu", 1, 0, "warning", "unused"}});
    QCOMPARE(editor.diagnosticCount(), 2);
    QsciScintilla* s = editor.scintilla();
    QVERIFY(s->markersAtLine(2) != 0);
    QVERIFY(s->markersAtLine(0) != 0);
    QCOMPARE(s->markersAtLine(1), 0u);
    QVERIFY(s->annotation(2).contains("identifier \"c\" is undefined"));
    editor.setDiagnostics({});
    QCOMPARE(editor.diagnosticCount(), 0);
    QCOMPARE(s->markersAtLine(2), 0u);
  }

  // The history's Code... window: one run's code, two runs' difference, a built-in run refused.
  void theCodeOfStoredRuns() {
    const QString db = dir_.filePath("code.sqlite");
    std::int64_t ids[3];
    {
      RunStore store(db.toStdString());
      RunResult r;
      r.family = "user";
      r.variant = "k";
      r.code = KernelCode{"k.cu", std::string(64, 'a'), "a\nb\nc\n", ""};
      ids[0] = store.insertRun(r);
      r.code = KernelCode{"k.cu", std::string(64, 'b'), "a\nB\nc\n", ""};
      ids[1] = store.insertRun(r);
      r.code.reset();
      ids[2] = store.insertRun(r);
    }
    QCOMPARE(CodeDialog(db, {ids[0]}).text(), QString("a\nb\nc\n"));
    QVERIFY(CodeDialog(db, {ids[0], ids[1]}).text().contains(" a\n-b\n+B\n c\n"));
    QVERIFY_THROWS_EXCEPTION(Error, CodeDialog(db, {ids[2]}));
  }

  // Through the real worker, which compiles with NVRTC without a GPU: the compiler's errors and
  // the spec's land on their lines, and nothing runs until the spec reads.
  void theWindowMarksCompileAndSpecErrors() {
    const QString path = write("broken.cu", fixture("broken.cu"));
    Settings settings{dir_.filePath("h.sqlite"), 0, 0.5, "none", dir_.filePath("kernels")};
    MainWindow window(KWB_EXECUTABLE, settings);
    QVERIFY(window.openKernel(path));
    KernelEditor* editor = window.kernelEditor();
    QCOMPARE(editor->path(), QFileInfo(path).absoluteFilePath());
    QTRY_VERIFY_WITH_TIMEOUT(editor->diagnosticCount() > 0, 20000);
    QVERIFY(editor->scintilla()->markersAtLine(21) != 0);  // line 22
    QVERIFY(editor->scintilla()->annotation(21).contains("undefined_name"));

    QString text = editor->text();
    text.replace("name = \"broken\"", "name = 7");
    editor->scintilla()->setText(text);
    QTRY_VERIFY_WITH_TIMEOUT(editor->scintilla()->markersAtLine(1) != 0, 5000);  // line 2
    QVERIFY(editor->scintilla()->annotation(1).contains("name: must be text"));
  }

 private:
  QTemporaryDir dir_;
};

}  // namespace kwb

QTEST_MAIN(kwb::KernelEditorTest)
#include "kerneleditor_test.moc"
