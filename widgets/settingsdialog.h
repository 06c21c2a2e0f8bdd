#pragma once

#include <QDialog>

#include <memory>

#include "widgets/settings.h"

namespace Ui {
class SettingsDialog;
}

namespace kwb {

// Edits the remembered settings. The database and the device take effect at the next start: the
// running worker and history keep theirs until then.
class SettingsDialog : public QDialog {
  Q_OBJECT

 public:
  SettingsDialog(const Settings& settings, QWidget* parent = nullptr);
  ~SettingsDialog() override;
  Settings settings() const;

 private:
  std::unique_ptr<Ui::SettingsDialog> ui_;
  Settings shown_;  // what the dialog does not edit comes back unchanged
};

}  // namespace kwb
