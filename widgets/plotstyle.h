#pragma once

#include <QColor>
#include <QString>

#include <functional>

class QCustomPlot;
class QCPAbstractPlottable;

namespace kwb {

// What every chart shares: drag to pan, wheel to zoom on both axes, and a palette whose colours
// stay apart when printed.
void setUpInteractions(QCustomPlot* plot);
QColor seriesColour(int index);
// Room around the data after rescaleAxes(): 5 % on x, and y from zero (or 5 %) up.
void padRanges(QCustomPlot* plot);

// Reads out the data point under the mouse in the plot's top left corner, in the words of
// describe(plottable, data index); nothing when the mouse is over no data.
using Describe = std::function<QString(QCPAbstractPlottable*, int)>;
void installReadout(QCustomPlot* plot, Describe describe);

}  // namespace kwb
