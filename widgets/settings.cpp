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
  s.host = store.value("host").toString();
  s.hosts = store.value("hosts").toStringList();
  s.devices = store.value("devices").toString();
  s.budgetSeconds = store.value("budget_s", 0.5).toDouble();
  s.metrics = store.value("metrics", s.metrics).toString();
  s.kernelsFolder = store.value("kernels_folder").toString();
  return s;
}

void Settings::save() const {
  QSettings store;
  store.setValue("database", databasePath);
  store.setValue("device", device);
  store.setValue("host", host);
  store.setValue("hosts", hosts);
  store.setValue("devices", devices);
  store.setValue("budget_s", budgetSeconds);
  store.setValue("metrics", metrics);
  store.setValue("kernels_folder", kernelsFolder);
}

QStringList Settings::workerArguments() const {
  QStringList arguments{"--db", databasePath, "--device", QString::number(device)};
  if (!host.isEmpty()) arguments << "--host" << host;
  if (!devices.isEmpty()) arguments << "--devices" << devices;
  return arguments;
}

}  // namespace kwb
