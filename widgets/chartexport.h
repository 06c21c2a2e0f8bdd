#pragma once

#include <QString>

class QCustomPlot;

namespace kwb {

// Saves a chart as PNG, JPG or PDF (by the file's suffix) at the given size in pixels (points for
// PDF); false when the format is unknown or the file cannot be written.
bool saveChart(QCustomPlot* plot, const QString& path, int width, int height);

// Puts the chart on the clipboard as an image of the given size.
void copyChart(QCustomPlot* plot, int width, int height);

}  // namespace kwb
