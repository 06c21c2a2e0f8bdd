#pragma once

#include <QDialog>

#include <memory>

#include "widgets/settings.h"

namespace Ui {
class SettingsDialog;
}

namespace kwb {

// Edits the remembered settings. The host, the GPUs and Slurm take effect at once (after a
// running job);
// the database at the next start: the history shown keeps its file until then.
class SettingsDialog : public QDialog {
  Q_OBJECT

 public:
  SettingsDialog(const Settings& settings, QWidget* parent = nullptr);
  ~SettingsDialog() override;
  Settings settings() const;
  static QString thisMachine();  // the host list's first entry: jobs run here

 private:
  std::unique_ptr<Ui::SettingsDialog> ui_;
  Settings shown_;  // what the dialog does not edit comes back unchanged
};

}  // namespace kwb
