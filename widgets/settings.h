#pragma once

#include <QString>

namespace kwb {

// What the workbench remembers across starts (QSettings): where the history lives, which device
// runs the jobs, the timing budget per point and the hardware metrics picked last.
struct Settings {
  QString databasePath;
  int device = 0;
  double budgetSeconds = 0.5;
  QString metrics = "none";  // as typed in the Measurement box
  QString kernelsFolder;     // "My kernels"; empty: MyKernels::defaultFolder()

  static Settings load();  // defaults where nothing is stored
  void save() const;
};

}  // namespace kwb
