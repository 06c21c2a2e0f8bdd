#include <QAbstractTextDocumentLayout>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextLayout>
#include <QTextTable>

#include "core/stats.h"
#include "widgets/report.h"

namespace kwb {

class ReportTest : public QObject {
  Q_OBJECT

  static Report sample(int runs) {
    Report report;
    report.title = "GIoU: padded with and without a graph";
    DeviceInfo d;
    d.name = "NVIDIA H100 80GB HBM3";
    d.uuid = "GPU-1234";
    d.ccMajor = 9;
    d.smCount = 132;
    d.driverVersion = 13000;
    d.runtimeVersion = 13000;
    d.peakBandwidth = 3.35e12;
    report.device = d;
    for (int i = 0; i < runs; ++i) {
      RunResult r;
      r.family = "giou";
      r.variant = "padded";
      r.problem.set("batch", std::to_string(256 << (i % 4)));
      r.launch.set("graph", i % 2 ? "on" : "off");
      r.samples = {1e-4, 1.1e-4, 0.9e-4};
      r.stats = summarize(r.samples);
      r.bandwidth = 5e10;
      r.ceilingBandwidth = 3e12;
      r.verification = {true, true, 1e-8, 1e-5};
      r.metrics = {{"host.wall_per_call", 1.9e-4, "s", ""},
                   {"host.launches_per_call", 33, "", ""},
                   {"activity.duration.median", 2e-5, "s", "binaryKernel<Sub> x9"}};
      report.runs.push_back(r);
    }
    QImage chart(400, 200, QImage::Format_RGB32);
    chart.fill(Qt::darkCyan);
    report.charts.push_back({"Median against batch", chart});
    return report;
  }

 private slots:
  // On an A4 page no header or value of the runs table breaks: each cell is one line.
  void runsTableCellsKeepToOneLine() {
    const Report report = sample(6);
    QImage probe(910, 1286, QImage::Format_RGB32);
    probe.setDotsPerMeterX(110 * 10000 / 254);
    probe.setDotsPerMeterY(110 * 10000 / 254);
    QTextDocument document;
    layOutReport(document, report, probe);
    QVERIFY(document.pageCount() >= 1);  // lays the document out
    int cells = 0;
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
      QTextTable* table = QTextCursor(block).currentTable();
      // The runs table: a header row and six runs, the second column the batch.
      if (!table || table->rows() != 7 ||
          table->cellAt(0, 1).firstCursorPosition().block().text() != "batch")
        continue;
      ++cells;
      QVERIFY2(block.layout()->lineCount() == 1,
               qPrintable(QString("'%1' breaks").arg(block.text())));
    }
    QVERIFY(cells >= 7 * 12);
  }
  void htmlStandsAlone() {
    const QString html = reportHtml(sample(2));
    QVERIFY(html.contains("NVIDIA H100 80GB HBM3"));
    QVERIFY(html.contains("giou/padded"));
    // A column per parameter that changes.
    QVERIFY(html.contains("<th class=run align=left>batch</th>"));
    QVERIFY(html.contains("<td class=run>512</td>"));
    QVERIFY(html.contains("<th class=run align=left>of copy ceiling</th>"));
    QVERIFY(html.contains("host.launches_per_call"));
    QVERIFY(!html.contains("binaryKernel"));  // run-level metrics only
    QVERIFY(html.contains("13.0 / 13.0"));
    QVERIFY(html.contains("data:image/png;base64,"));
    QVERIFY(html.contains("Median against batch"));
  }

  void pdfAndHtmlFilesAreWritten() {
    QTemporaryDir dir;
    const Report report = sample(60);  // long enough for several pages
    QVERIFY(writeReport(report, dir.filePath("r.pdf")));
    QFile pdf(dir.filePath("r.pdf"));
    QVERIFY(pdf.open(QIODevice::ReadOnly));
    const QByteArray bytes = pdf.readAll();
    QVERIFY(bytes.startsWith("%PDF-"));
    const auto pages = reportPages(report, 150);  // the PDF's resolution: the same pagination
    QVERIFY(pages.size() >= 2);
    QCOMPARE(bytes.count("/Type /Page\n") + bytes.count("/Type /Page\r"), qsizetype(pages.size()));
    QVERIFY(writeReport(report, dir.filePath("r.html")));
    QVERIFY(QFile(dir.filePath("r.html")).size() > 1000);
    QVERIFY(!writeReport(report, dir.filePath("r.docx")));
    QVERIFY(!writeReport(report, dir.filePath("missing/folder/r.html")));
  }

  void pagesAreA4AndNotBlank() {
    const auto pages = reportPages(sample(3), 100);
    QVERIFY(!pages.empty());
    QCOMPARE(pages[0].width(), 826);
    QCOMPARE(pages[0].height(), 1169);
    int dark = 0;
    for (int y = 0; y < pages[0].height(); y += 4)
      for (int x = 0; x < pages[0].width(); x += 4) dark += qGray(pages[0].pixel(x, y)) < 128;
    QVERIFY(dark > 100);
  }
};

}  // namespace kwb

QTEST_MAIN(kwb::ReportTest)
#include "report_test.moc"
