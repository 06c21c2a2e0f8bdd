#pragma once

#include <QObject>
#include <QStringList>

#include <vector>

#include "widgets/kerneltreemodel.h"

class QFileSystemWatcher;

namespace kwb {

// The tree item of a kernel file's text: its spec read as `kwb` reads it, or why it cannot be.
KernelFileItem kernelFileItem(const QString& path, const QString& text);

// The kernel files the "My kernels" branch lists: the .cu files of the user's folder (watched,
// so files added there appear) and those opened from elsewhere.
class MyKernels : public QObject {
  Q_OBJECT

 public:
  explicit MyKernels(QString folder, QObject* parent = nullptr);

  // $XDG_DATA_HOME/kernel-workbench/kernels (~/.local/share/...), created where missing.
  static QString defaultFolder();
  QString folder() const { return folder_; }
  void setFolder(const QString& folder);
  void add(const QString& path);
  // Every file, its spec read now, sorted by file name.
  std::vector<KernelFileItem> items() const;

 signals:
  void changed();

 private:
  QString folder_;
  QStringList opened_;
  QFileSystemWatcher* watcher_;
};

}  // namespace kwb
