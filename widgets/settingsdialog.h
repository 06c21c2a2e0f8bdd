#pragma once

#include <QDialog>

#include "widgets/settings.h"

class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace kwb {

// Edits the remembered settings. The database and the device take effect at the next start: the
// running worker and history keep theirs until then.
class SettingsDialog : public QDialog {
  Q_OBJECT

 public:
  SettingsDialog(const Settings& settings, QWidget* parent = nullptr);
  Settings settings() const;

 private:
  QLineEdit* database_;
  QSpinBox* device_;
  QDoubleSpinBox* budget_;
};

}  // namespace kwb
