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

QString axisLabel(ChartMetric metric) {
  return metric == ChartMetric::Runtime ? QObject::tr("median runtime [µs]")
                                        : QObject::tr("bandwidth [GB/s]");
}

QString valueText(ChartMetric metric, double value) {
  return metric == ChartMetric::Runtime ? QString("%1 µs").arg(value, 0, 'f', 2)
                                        : QString("%1 GB/s").arg(value, 0, 'f', 0);
}

QCPItemText* addCornerText(QCustomPlot* plot, Qt::Alignment corner) {
  auto* text = new QCPItemText(plot);
  text->setLayer("overlay");
  text->position->setType(QCPItemPosition::ptAxisRectRatio);
  text->position->setCoords(corner & Qt::AlignRight ? 0.99 : 0.01, 0.01);
  text->setPositionAlignment(Qt::AlignTop |
                             (corner & Qt::AlignRight ? Qt::AlignRight : Qt::AlignLeft));
  text->setPadding(QMargins(4, 2, 4, 2));
  text->setBrush(QBrush(QColor(255, 255, 255, 230)));
  text->setVisible(false);
  return text;
}

void showText(QCustomPlot* plot, QCPItemText* item, const QString& text) {
  if (text == item->text() && item->visible() == !text.isEmpty()) return;
  item->setText(text);
  item->setVisible(!text.isEmpty());
  plot->replot(QCustomPlot::rpQueuedReplot);
}

void installReadout(QCustomPlot* plot, Describe describe) {
  QCPItemText* text = addCornerText(plot, Qt::AlignRight);
  text->setPen(QPen(QColor(160, 160, 160)));
  QObject::connect(plot, &QCustomPlot::mouseMove, plot, [plot, text, describe](QMouseEvent* event) {
    int index = -1;
    QCPAbstractPlottable* hit = plot->plottableAt(event->position(), false, &index);
    if (auto* bars = qobject_cast<QCPErrorBars*>(hit)) hit = bars->dataPlottable();
    const QCPPlottableInterface1D* data = hit ? hit->interface1D() : nullptr;
    const bool onData = data && index >= 0 && index < data->dataCount();
    showText(plot, text,
             onData ? describe(hit->name(), data->dataMainKey(index), data->dataMainValue(index))
                    : QString());
  });
}

}  // namespace kwb
