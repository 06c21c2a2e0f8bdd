#include "widgets/plotstyle.h"

#include <array>

#include <qcustomplot.h>

namespace kwb {

void setUpInteractions(QCustomPlot* plot) {
  plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot->axisRect()->setRangeDrag(Qt::Horizontal | Qt::Vertical);
  plot->axisRect()->setRangeZoom(Qt::Horizontal | Qt::Vertical);
}

QColor seriesColour(int index) {
  // Tableau 10: distinct on screen and in grey print.
  static constexpr std::array<QRgb, 10> kPalette = {0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728,
                                                    0x9467bd, 0x8c564b, 0xe377c2, 0x7f7f7f,
                                                    0xbcbd22, 0x17becf};
  return QColor(kPalette[static_cast<std::size_t>(index) % kPalette.size()]);
}

void padRanges(QCustomPlot* plot) {
  const QCPRange x = plot->xAxis->range();
  const double dx = x.size() > 0 ? 0.05 * x.size() : 1.0;
  plot->xAxis->setRange(x.lower - dx, x.upper + dx);
  const QCPRange y = plot->yAxis->range();
  plot->yAxis->setRange(y.lower >= 0 ? 0 : y.lower - 0.05 * y.size(),
                        y.upper + (y.size() > 0 ? 0.1 * y.size() : 1.0));
}

}  // namespace kwb

namespace kwb {

void installReadout(QCustomPlot* plot, Describe describe) {
  auto* text = new QCPItemText(plot);
  text->setLayer("overlay");
  text->position->setType(QCPItemPosition::ptAxisRectRatio);
  text->position->setCoords(0.99, 0.01);
  text->setPositionAlignment(Qt::AlignTop | Qt::AlignRight);
  text->setPadding(QMargins(4, 2, 4, 2));
  text->setBrush(QBrush(QColor(255, 255, 255, 230)));
  text->setPen(QPen(QColor(160, 160, 160)));
  text->setVisible(false);
  QObject::connect(plot, &QCustomPlot::mouseMove, plot, [plot, text, describe](QMouseEvent* event) {
    int index = -1;
    QCPAbstractPlottable* hit = plot->plottableAt(event->position(), false, &index);
    const QString line = hit && index >= 0 ? describe(hit, index) : QString();
    if (line == text->text() && text->visible() == !line.isEmpty()) return;
    text->setText(line);
    text->setVisible(!line.isEmpty());
    plot->replot(QCustomPlot::rpQueuedReplot);
  });
}

}  // namespace kwb
