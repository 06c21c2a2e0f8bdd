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
  s.slurm = store.value("slurm", false).toBool();
  s.partition = store.value("slurm_partition").toString();
  s.gres = store.value("slurm_gres").toString();
  s.tasks = store.value("slurm_tasks", s.tasks).toInt();
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
  store.setValue("slurm", slurm);
  store.setValue("slurm_partition", partition);
  store.setValue("slurm_gres", gres);
  store.setValue("slurm_tasks", tasks);
  store.setValue("budget_s", budgetSeconds);
  store.setValue("metrics", metrics);
  store.setValue("kernels_folder", kernelsFolder);
}

QStringList Settings::workerArguments() const {
  QStringList arguments{"--db", databasePath, "--device", QString::number(device)};
  if (!host.isEmpty()) arguments << "--host" << host;
  if (!devices.isEmpty()) arguments << "--devices" << devices;
  if (slurm) {
    arguments << "--slurm"
              << "--tasks" << QString::number(tasks);
    if (!partition.isEmpty()) arguments << "--partition" << partition;
    if (!gres.isEmpty()) arguments << "--gres" << gres;
  }
  return arguments;
}

}  // namespace kwb
