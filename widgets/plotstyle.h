#pragma once

#include <QColor>
#include <QString>

#include <functional>

#include <Qt>

class QCustomPlot;
class QCPItemText;

namespace kwb {

// What every chart shares: drag to pan, wheel to zoom on both axes, and a palette whose colours
// stay apart when printed.
void setUpInteractions(QCustomPlot* plot);
QColor seriesColour(int index);
// Room around the data after rescaleAxes(): 5 % on x, and y from zero (or 5 %) up.
void padRanges(QCustomPlot* plot);

// What the history charts show of a run: its median runtime or its bandwidth.
enum class ChartMetric { Runtime, Bandwidth };
QString axisLabel(ChartMetric metric);                // "bandwidth [GB/s]"
QString valueText(ChartMetric metric, double value);  // "2930 GB/s", value in the axis' unit

// A boxed text in a corner of the axis rect, above the data: read-outs and notes. Hidden while
// empty; showText replots only when the text changes.
QCPItemText* addCornerText(QCustomPlot* plot, Qt::Alignment corner);
void showText(QCustomPlot* plot, QCPItemText* item, const QString& text);

// Reads out the data point under the mouse in the plot's top right corner, in the words of
// describe(series name, key, value); error bars count as their data. Nothing over no data.
using Describe = std::function<QString(const QString& name, double key, double value)>;
void installReadout(QCustomPlot* plot, Describe describe);

}  // namespace kwb
