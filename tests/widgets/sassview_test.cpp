#include <QComboBox>
#include <QFile>
#include <QPlainTextEdit>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>

#include "core/kernelname.h"
#include "widgets/metatypes.h"
#include "widgets/sasshighlighter.h"
#include "widgets/sasspane.h"

namespace kwb {

class SassViewTest : public QObject {
  Q_OBJECT

  // The recorded cuobjdump output (a packed and a naive elementwise kernel) as a worker's report.
  static SassReport recorded() {
    QFile file(KWB_FIXTURES_DIR "/sass/cuobjdump_sm90.sass");
    file.open(QIODevice::ReadOnly);
    SassReport report{"elementwise", "packed", "sm_90", "1-ab", {}, false, {}};
    for (const auto& f : parseCuobjdumpSass(file.readAll().toStdString()))
      report.kernels.push_back({f.symbol, shortKernelName(f.symbol), f.listing});
    return report;
  }

 private slots:
  void paneCountsTheInstructionsThatMatterPerKernel() {
    SassPane pane;
    pane.showReport(recorded());
    QCOMPARE(pane.kernelNames().size(), 2);
    QVERIFY(pane.kernelNames()[0].startsWith("packedKernel<4, 4, true, Cast"));
    QVERIFY2(pane.status().contains("sm_90 SASS, read by cuobjdump"), qPrintable(pane.status()));
    QVERIFY2(pane.status().contains("2 kernels"), qPrintable(pane.status()));
    QVERIFY2(pane.counts().startsWith("208 instructions"), qPrintable(pane.counts()));
    QVERIFY(pane.counts().contains("STG.E.128</b>&nbsp;×8"));
    QVERIFY(pane.listing().contains("STG.E.128 desc[UR6][R36.64], R16 ;"));
    auto* kernels = pane.findChild<QComboBox*>();
    QVERIFY(kernels);
    kernels->setCurrentIndex(1);
    QVERIFY2(pane.counts().startsWith("32 instructions"), qPrintable(pane.counts()));
    QVERIFY(!pane.counts().contains(".128"));

    SassReport none = recorded();
    none.kernels.clear();
    pane.showReport(none);
    QVERIFY(pane.status().contains("launches no kernel"));
    QVERIFY(pane.listing().isEmpty());
  }

  void wideAccessesStandOutInTheListing() {
    SassPane pane;
    pane.showReport(recorded());
    auto* editor = pane.findChild<QPlainTextEdit*>();
    QVERIFY(editor);
    const QTextDocument* document = editor->document();
    int checked = 0;
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
      const SassClass kind = classifySassOpcode(sassOpcode(block.text().toStdString()));
      const auto formats = block.layout()->formats();
      bool coloured = false;
      for (const auto& range : formats)
        coloured = coloured || (range.format.foreground().color() == sassClassColor(kind) &&
                                range.format.fontWeight() == QFont::Bold);
      if (kind == SassClass::GlobalWide || kind == SassClass::GlobalNarrow) {
        QVERIFY2(coloured, qPrintable(block.text()));
        ++checked;
      } else {
        QVERIFY2(!coloured, qPrintable(block.text()));
      }
    }
    QCOMPARE(checked, 18);
  }
};

}  // namespace kwb

QTEST_MAIN(kwb::SassViewTest)
#include "sassview_test.moc"
