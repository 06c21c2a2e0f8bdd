#pragma once

#include <QString>

namespace kwb {

// What the workbench remembers across starts (QSettings): where the history lives, which device
// runs the jobs, and the timing budget per point.
struct Settings {
  QString databasePath;
  int device = 0;
  double budgetSeconds = 0.5;

  static Settings load();  // defaults where nothing is stored
  void save() const;
};

}  // namespace kwb
