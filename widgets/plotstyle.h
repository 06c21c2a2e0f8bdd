#pragma once

#include <QColor>

class QCustomPlot;

namespace kwb {

// What every chart shares: drag to pan, wheel to zoom on both axes, and a palette whose colours
// stay apart when printed.
void setUpInteractions(QCustomPlot* plot);
QColor seriesColour(int index);
// Room around the data after rescaleAxes(): 5 % on x, and y from zero (or 5 %) up.
void padRanges(QCustomPlot* plot);

}  // namespace kwb
