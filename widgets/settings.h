#pragma once

#include <QString>
#include <QStringList>

namespace kwb {

// What the workbench remembers across starts (QSettings): where the history lives, which host and
// device run the jobs, the timing budget per point and the hardware metrics picked last.
struct Settings {
  QString databasePath;
  int device = 0;
  double budgetSeconds = 0.5;
  QString metrics = "none";  // as typed in the Measurement box
  QString kernelsFolder;     // "My kernels"; empty: MyKernels::defaultFolder()
  QString host = {};         // where the jobs run (USER@SERVER or an ssh Host); empty: here
  QStringList hosts = {};    // the hosts offered in Settings
  QString devices = {};      // several GPUs sharing the points: "all" or "0,1"; empty: device
  bool slurm = false;        // runs and sweeps go to Slurm as job arrays
  QString partition = {};    // Slurm's, and the generic resources a task needs ("gpu:1")
  QString gres = {};
  int tasks = 4;  // a job array's tasks at most

  static Settings load();  // defaults where nothing is stored
  void save() const;
  // The arguments of `kwb` before "worker": the history and the device, then --host, --devices
  // and --slurm where set (this machine's kwb then passes the jobs to the host's workers, shares
  // them among a worker per GPU or submits them to Slurm, and stores their results here).
  QStringList workerArguments() const;
};

}  // namespace kwb
