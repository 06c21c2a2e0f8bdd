#include "widgets/settings.h"

#include <QSettings>

#include "db/defaultpath.h"

namespace kwb {

Settings Settings::load() {
  QSettings store;
  Settings s;
  s.databasePath =
      store.value("database", QString::fromStdString(defaultDatabasePath())).toString();
  s.device = store.value("device", 0).toInt();
  s.budgetSeconds = store.value("budget_s", 0.5).toDouble();
  s.metrics = store.value("metrics", s.metrics).toString();
  s.kernelsFolder = store.value("kernels_folder").toString();
  return s;
}

void Settings::save() const {
  QSettings store;
  store.setValue("database", databasePath);
  store.setValue("device", device);
  store.setValue("budget_s", budgetSeconds);
  store.setValue("metrics", metrics);
  store.setValue("kernels_folder", kernelsFolder);
}

}  // namespace kwb
