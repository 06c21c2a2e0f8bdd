#include <QTest>
#include <QTextBlock>
#include <QTextDocument>

#include "widgets/cudahighlighter.h"
#include "widgets/kernelsources.h"
#include "widgets/sourceview.h"

namespace kwb {

class SourceViewTest : public QObject {
  Q_OBJECT

 private slots:
  void everyVariantHasItsSourceBuiltIn() {
    const std::pair<const char*, std::vector<const char*>> families[] = {
        {"copy", {"memcpy", "vectorized"}},
        {"elementwise", {"naive", "grid_stride", "packed", "packed_half2"}},
        {"permute",
         {"naive", "simplified", "movement", "tiled", "tiled_half2", "tiled_wide", "narrow",
          "general", "packed", "auto"}},
        {"giou",
         {"per_sample", "concat", "padded", "fused", "fused_conditional", "fused_fwd_bwd"}}};
    SourceView view;
    view.resize(900, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    for (const auto& [family, variants] : families)
      for (const char* variant : variants) {
        const KernelSources sources = kernelSources(family, variant);
        QVERIFY2(!sources.files.isEmpty(), variant);
        for (const QString& file : sources.files)
          QVERIFY2(!kernelSource(file).isEmpty(), qPrintable(file));
        // The entry is in the first file, outside a comment, a few lines below where it opens.
        view.setVariant(family, variant);
        const QStringList lines = view.text().split('\n');
        const int top = view.topLine();
        const QStringList opened = lines.mid(top, 12);
        QVERIFY2(sources.entry.isEmpty() ? top == 0 : opened.join('\n').contains(sources.entry),
                 qPrintable(QString("%1: %2").arg(variant, lines.value(top))));
      }
    QVERIFY(kernelSources("matmul", "tiled").files.isEmpty());
    QVERIFY(kernelSource(":/kernels/none.cu").isEmpty());
  }

  void opensAtTheVariantsOwnKernel() {
    SourceView view;
    view.resize(900, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const auto topText = [&view] { return view.text().split('\n').value(view.topLine()); };
    view.setVariant("permute", "tiled_wide");
    QCOMPARE(view.currentFile(), QString("permute/tiledtranspose.cu"));
    QVERIFY2(topText().startsWith("// Elements in cells of 8-byte rows"), qPrintable(topText()));
    view.setVariant("permute", "tiled");
    QCOMPARE(topText(), QString("template <typename T, int Tile, bool Pad, typename Index>"));
    view.setVariant("permute", "general");
    QCOMPARE(view.topLine(), 0);
  }

  void showsTheKernelFirst() {
    SourceView view;
    view.setVariant("permute", "tiled");
    QCOMPARE(view.currentFile(), QString("permute/tiledtranspose.cu"));
    QVERIFY(view.text().contains("__global__ void tiledTransposeKernel"));
    view.setVariant("matmul", "tiled");
    QVERIFY(view.text().isEmpty());
  }

  void highlightsCudaAndComments() {
    QTextDocument document;
    CudaHighlighter highlighter(&document);
    document.setPlainText("__global__ void k() { /* a\ncomment */ int x = 4; }\n// done");
    highlighter.rehighlight();
    const auto formatAt = [&](int block, int position) {
      for (const auto& range : document.findBlockByNumber(block).layout()->formats())
        if (position >= range.start && position < range.start + range.length)
          return range.format.foreground().color();
      return QColor();
    };
    QCOMPARE(formatAt(0, 0), QColor(160, 0, 120));    // __global__
    QCOMPARE(formatAt(1, 0), QColor(110, 110, 110));  // inside the block comment
    QCOMPARE(formatAt(1, 12), QColor(0, 110, 110));   // int
    QCOMPARE(formatAt(2, 3), QColor(110, 110, 110));  // line comment
  }
};

}  // namespace kwb

QTEST_MAIN(kwb::SourceViewTest)
#include "sourceview_test.moc"
