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
          "general", "auto"}},
        {"giou",
         {"per_sample", "concat", "padded", "fused", "fused_conditional", "fused_fwd_bwd"}}};
    for (const auto& [family, variants] : families)
      for (const char* variant : variants) {
        const QStringList files = kernelSourceFiles(family, variant);
        QVERIFY2(!files.isEmpty(), variant);
        for (const QString& file : files) QVERIFY2(!kernelSource(file).isEmpty(), qPrintable(file));
      }
    QVERIFY(kernelSourceFiles("matmul", "tiled").isEmpty());
    QVERIFY(kernelSource(":/kernels/none.cu").isEmpty());
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
