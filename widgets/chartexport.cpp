#include "widgets/chartexport.h"

#include <QApplication>
#include <QClipboard>
#include <QFileInfo>

#include <qcustomplot.h>

namespace kwb {

namespace {

// On screen a large chart may draw aliased to stay quick; a saved chart is drawn antialiased.
class Antialiased {
 public:
  explicit Antialiased(QCustomPlot* plot) : plot_(plot), before_(plot->notAntialiasedElements()) {
    plot_->setNotAntialiasedElements(QCP::aeNone);
  }
  ~Antialiased() { plot_->setNotAntialiasedElements(before_); }
  Antialiased(const Antialiased&) = delete;
  Antialiased& operator=(const Antialiased&) = delete;

 private:
  QCustomPlot* plot_;
  QCP::AntialiasedElements before_;
};

}  // namespace

bool saveChart(QCustomPlot* plot, const QString& path, int width, int height) {
  const Antialiased quality(plot);
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == "png") return plot->savePng(path, width, height);
  if (suffix == "jpg" || suffix == "jpeg") return plot->saveJpg(path, width, height, 1.0, 92);
  if (suffix == "pdf") return plot->savePdf(path, width, height);
  return false;
}

void copyChart(QCustomPlot* plot, int width, int height) {
  const Antialiased quality(plot);
  QApplication::clipboard()->setPixmap(plot->toPixmap(width, height));
}

}  // namespace kwb
