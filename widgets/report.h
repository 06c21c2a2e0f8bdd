#pragma once

#include <optional>
#include <vector>

#include <QDateTime>
#include <QImage>
#include <QString>

#include "core/deviceinfo.h"
#include "core/runresult.h"

class QPaintDevice;
class QTextDocument;

namespace kwb {

// A report for a write-up or a workshop: the chosen charts, each run's configuration and
// statistics, its metrics, and the device and driver they ran on.
struct Report {
  QString title;
  std::optional<DeviceInfo> device;
  std::vector<RunResult> runs;
  std::vector<std::pair<QString, QImage>> charts;  // caption, image
  QDateTime generated = QDateTime::currentDateTimeUtc();
};

// The paginated document the PDF and its page images share: A4 at the device's resolution,
// 15 mm margins.
void layOutReport(QTextDocument& document, const Report& report, QPaintDevice& device);
// The report as one HTML page; images inline (data: URIs) so the file stands alone.
QString reportHtml(const Report& report);
// Writes HTML or PDF by the path's suffix (.html, .htm, .pdf); false when it cannot be written.
bool writeReport(const Report& report, const QString& path);
// The PDF's pages as images, laid out the same way: previews and documentation.
std::vector<QImage> reportPages(const Report& report, int dotsPerInch);

}  // namespace kwb
