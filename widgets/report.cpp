#include "widgets/report.h"

#include <algorithm>
#include <cstdio>

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QFile>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QTextDocument>

#include "core/format.h"
#include "core/resultcolumns.h"

namespace kwb {
namespace {

QString escaped(const std::string& text) {
  return QString::fromStdString(text).toHtmlEscaped();
}

QString cell(const std::string& text, bool number = false) {
  return QString(number ? "<td align=right>%1</td>" : "<td>%1</td>").arg(escaped(text));
}

// A cell and a header of the runs table: smaller type, so that a dozen columns fit an A4 page
// without a value or a header breaking mid-word.
QString runCell(const std::string& text, bool number = false) {
  return QString(number ? "<td class=run align=right>%1</td>" : "<td class=run>%1</td>")
      .arg(escaped(text));
}

QString th(const std::string& name) {
  return QString("<th class=run align=left>%1</th>").arg(escaped(name));
}

QString deviceSection(const Report& r) {
  if (!r.device) return "<p>Device: not recorded.</p>";
  const DeviceInfo& d = *r.device;
  return QString(
             "<h2>Device</h2><table cellspacing=0 cellpadding=3 border=1>"
             "<tr><td>GPU</td><td>%1 (compute capability %2, %3 SMs)</td></tr>"
             "<tr><td>Memory</td><td>%4, theoretical peak %5</td></tr>"
             "<tr><td>Driver / runtime</td><td>%6 / %7</td></tr>"
             "<tr><td>UUID</td><td>%8</td></tr></table>")
      .arg(escaped(d.name), escaped(d.computeCapability()), QString::number(d.smCount),
           escaped(formatBytes(static_cast<double>(d.totalMemBytes))),
           escaped(formatBandwidth(d.peakBandwidth)),
           QString("%1.%2").arg(d.driverVersion / 1000).arg(d.driverVersion % 1000 / 10),
           QString("%1.%2").arg(d.runtimeVersion / 1000).arg(d.runtimeVersion % 1000 / 10),
           escaped(d.uuid));
}

// Parameters every run shares, shown once; the runs table shows the others.
struct Split {
  ParamSet common;
  std::vector<std::string> varying;
};

Split splitParams(const std::vector<RunResult>& runs) {
  Split out;
  if (runs.empty()) return out;
  std::vector<std::string> names;
  for (const auto& run : runs)
    for (const ParamSet* set : {&run.problem, &run.launch})
      for (const auto& [name, value] : set->values())
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  for (const auto& name : names) {
    const std::string first = runs.front().param(name);
    const bool same = std::all_of(runs.begin(), runs.end(),
                                  [&](const RunResult& r) { return r.param(name) == first; });
    if (same)
      out.common.set(name, first);
    else
      out.varying.push_back(name);
  }
  return out;
}

QString configurationSection(const Report& r, const Split& split) {
  if (r.runs.empty()) return {};
  std::vector<std::string> kernels;
  for (const auto& run : r.runs) {
    const std::string kernel = run.family + "/" + run.variant;
    if (std::find(kernels.begin(), kernels.end(), kernel) == kernels.end())
      kernels.push_back(kernel);
  }
  std::string kernelText;
  for (const auto& k : kernels) kernelText += (kernelText.empty() ? "" : ", ") + k;
  return "<h2>Configuration</h2><table width=100% cellspacing=0 cellpadding=3 border=1>"
         "<tr><td width=20%>kernel</td>" +
         cell(kernelText) + "</tr><tr><td>parameters of every run</td>" +
         cell(split.common.toText()) + "</tr><tr><td>timing</td>" +
         cell(std::string(toString(r.runs.front().mode)) +
              " samples (L2 flushed before each when cold), CUDA events, median of each run's "
              "samples") +
         "</tr></table>";
}

// One column per parameter that changes, then the statistics, sized to their content.
QString runsSection(const Report& r, const Split& split) {
  const auto columns =
      resultColumns({"time_median_s", "time_min_s", "time_max_s", "rsd", "samples", "bandwidth_Bps",
                     "ceiling_fraction", "verify_rel_error", "status"});
  QString html = "<h2>Runs</h2><table cellspacing=0 cellpadding=3 border=1><tr>" + th("#");
  for (const auto& name : split.varying) html += th(name);
  for (const ResultColumn* column : columns) html += th(std::string(column->header));
  html += "</tr>";
  int n = 0;
  for (const auto& run : r.runs) {
    const RunRecord record{0, std::nullopt, {}, run, {}};
    html += "<tr>" + runCell(std::to_string(++n), true);
    for (const auto& name : split.varying) html += runCell(run.param(name));
    for (const ResultColumn* column : columns) {
      const std::string text = column->text(record);
      html += runCell(text.empty() ? "-" : text, column->numeric);
    }
    html += "</tr>";
  }
  return html + "</table>";
}

// Run-level metrics: one row a metric, one column a run, at most kColumns runs a table.
QString metricsSection(const Report& r) {
  constexpr std::size_t kColumns = 6;
  std::vector<std::pair<std::string, std::string>> names;  // name, unit
  for (const auto& run : r.runs)
    for (const auto& m : run.metrics)
      if (m.kernel.empty() && std::none_of(names.begin(), names.end(),
                                           [&](const auto& n) { return n.first == m.name; }))
        names.emplace_back(m.name, m.unit);
  if (names.empty()) return {};
  QString html = "<h2>Metrics</h2>";
  for (std::size_t first = 0; first < r.runs.size(); first += kColumns) {
    const std::size_t last = std::min(r.runs.size(), first + kColumns);
    html += "<table width=100% cellspacing=0 cellpadding=3 border=1><tr><th align=left>metric</th>";
    for (std::size_t i = first; i < last; ++i)
      html += QString("<th align=right>run %1</th>").arg(i + 1);
    html += "</tr>";
    for (const auto& [name, unit] : names) {
      html += "<tr>" + cell(name);
      for (std::size_t i = first; i < last; ++i) {
        const Metric* m = r.runs[i].metric(name);
        html += cell(m ? formatMetricValue(m->value, unit) : "-", true);
      }
      html += "</tr>";
    }
    html += "</table><br>";
  }
  return html;
}

QString imageData(const QImage& image) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  image.save(&buffer, "PNG");
  return "data:image/png;base64," + QString::fromLatin1(bytes.toBase64());
}

// The report's body, with each chart's source given by `source(index)`.
template <typename Source>
QString body(const Report& r, Source source) {
  QString html = QString("<h1>%1</h1><p>Kernel Workbench report, %2 UTC.</p>")
                     .arg(r.title.toHtmlEscaped(), r.generated.toString("yyyy-MM-dd HH:mm"));
  for (std::size_t i = 0; i < r.charts.size(); ++i)
    html += QString("<p><img src=\"%1\" width=600><br><i>%2</i></p>")
                .arg(source(i), r.charts[i].first.toHtmlEscaped());
  const Split split = splitParams(r.runs);
  return html + deviceSection(r) + configurationSection(r, split) + runsSection(r, split) +
         metricsSection(r);
}

// Page `p` of the laid-out document, drawn at the painter's origin.
void drawPage(QPainter& painter, QTextDocument& document, int p) {
  const QSizeF page = document.pageSize();
  painter.save();
  painter.translate(0, -p * page.height());
  document.drawContents(&painter, QRectF(0, p * page.height(), page.width(), page.height()));
  painter.restore();
}

}  // namespace

void layOutReport(QTextDocument& document, const Report& r, QPaintDevice& device) {
  for (std::size_t i = 0; i < r.charts.size(); ++i)
    document.addResource(QTextDocument::ImageResource, QUrl(QString("chart%1").arg(i)),
                         r.charts[i].second);
  document.setDefaultStyleSheet(
      "body { font-size: 8pt; } th { background: #e8e8e8; } .run { font-size: 7pt; }");
  document.setHtml(body(r, [](std::size_t i) { return QString("chart%1").arg(i); }));
  document.documentLayout()->setPaintDevice(&device);
  const double dotsPerMm = device.logicalDpiX() / 25.4;
  const QSizeF page(210 * dotsPerMm, 297 * dotsPerMm);
  document.setPageSize(page);
  document.setDocumentMargin(15 * dotsPerMm);
}

QString reportHtml(const Report& report) {
  return "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>" +
         report.title.toHtmlEscaped() +
         "</title><style>body{font-family:sans-serif;font-size:10pt} table{border-collapse:"
         "collapse} th{background:#e8e8e8} .run{white-space:nowrap}</style></head><body>" +
         body(report, [&](std::size_t i) { return imageData(report.charts[i].second); }) +
         "</body></html>";
}

bool writeReport(const Report& report, const QString& path) {
  if (path.endsWith(".pdf", Qt::CaseInsensitive)) {
    QPdfWriter writer(path);
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setResolution(150);
    writer.setTitle(report.title);
    writer.setCreator("Kernel Workbench");
    QTextDocument document;
    layOutReport(document, report, writer);
    QPainter painter;
    if (!painter.begin(&writer)) return false;
    for (int p = 0; p < document.pageCount(); ++p) {
      if (p > 0) writer.newPage();
      drawPage(painter, document, p);
    }
    return painter.end();
  }
  if (!path.endsWith(".html", Qt::CaseInsensitive) && !path.endsWith(".htm", Qt::CaseInsensitive))
    return false;
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
  return file.write(reportHtml(report).toUtf8()) >= 0;
}

std::vector<QImage> reportPages(const Report& report, int dotsPerInch) {
  const int width = 210 * dotsPerInch * 10 / 254, height = 297 * dotsPerInch * 10 / 254;
  QImage probe(width, height, QImage::Format_RGB32);
  const int dotsPerMeter = dotsPerInch * 10000 / 254;
  probe.setDotsPerMeterX(dotsPerMeter);
  probe.setDotsPerMeterY(dotsPerMeter);
  QTextDocument document;
  layOutReport(document, report, probe);
  std::vector<QImage> pages;
  for (int p = 0; p < document.pageCount(); ++p) {
    QImage image = probe.copy();
    image.fill(Qt::white);
    QPainter painter(&image);
    drawPage(painter, document, p);
    painter.end();
    pages.push_back(std::move(image));
  }
  return pages;
}

}  // namespace kwb
