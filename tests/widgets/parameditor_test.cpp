#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>

#include "widgets/parameditor.h"

namespace kwb {

class ParamEditorTest : public QObject {
  Q_OBJECT

 private slots:
  void checksValuesAsTheyAreTyped() {
    ParamEditor editor;
    editor.setSpecs({integerParam("block_size", ParamRole::Launch, 32, 1024, "256", "threads",
                                  "threads per block", 32),
                     choiceParam("dtype", ParamRole::Problem, {"f32", "f16"}, "f32", "", "type")});
    QSignalSpy changed(&editor, &ParamEditor::valuesChanged);
    auto* block = editor.findChild<QLineEdit*>("block_size");
    QVERIFY(block);
    QVERIFY(editor.isValid());
    QVERIFY(editor.values().empty());  // defaults are the worker's to apply

    block->setText("100");
    QVERIFY(!editor.isValid());
    const auto labels = editor.findChildren<QLabel*>();
    const bool explained = std::any_of(labels.begin(), labels.end(), [](QLabel* l) {
      return l->text().contains("not a multiple of 32");
    });
    QVERIFY(explained);

    block->setText("2^7");
    QVERIFY(editor.isValid());
    QCOMPARE(QString::fromStdString(editor.values().at("block_size")), QString("2^7"));
    editor.findChild<QComboBox*>("dtype")->setCurrentText("f16");
    QCOMPARE(QString::fromStdString(editor.values().at("dtype")), QString("f16"));
    QVERIFY(changed.count() >= 3);

    QVERIFY(editor.showError("block_size", "too many registers"));
    QVERIFY(!editor.isValid());
    QVERIFY(!editor.showError("waves", "not here"));
  }
};

}  // namespace kwb

QTEST_MAIN(kwb::ParamEditorTest)
#include "parameditor_test.moc"
