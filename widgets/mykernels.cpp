#include "widgets/mykernels.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>

#include <algorithm>

#include "core/error.h"
#include "core/kernelspec.h"
#include "db/defaultpath.h"

namespace kwb {

KernelFileItem kernelFileItem(const QString& path, const QString& text) {
  KernelFileItem item{path, std::nullopt, {}};
  const std::string file = path.toStdString();
  try {
    const KernelSpec spec = parseKernelSpec(specText(text.toStdString(), file), file);
    item.variant = variantInfoOf(spec, file);
  } catch (const Error& e) {
    item.error = QString::fromStdString(e.what());
  }
  return item;
}

MyKernels::MyKernels(QString folder, QObject* parent)
    : QObject(parent), watcher_(new QFileSystemWatcher(this)) {
  connect(watcher_, &QFileSystemWatcher::directoryChanged, this, &MyKernels::changed);
  setFolder(folder.isEmpty() ? defaultFolder() : folder);
}

QString MyKernels::defaultFolder() {
  try {
    return QFileInfo(QString::fromStdString(defaultDatabasePath())).dir().filePath("kernels");
  } catch (const Error&) {
    return QDir::home().filePath("kernels");
  }
}

void MyKernels::setFolder(const QString& folder) {
  if (!folder_.isEmpty()) watcher_->removePath(folder_);
  folder_ = folder;
  QDir().mkpath(folder_);
  if (QFileInfo(folder_).isDir()) watcher_->addPath(folder_);
  emit changed();
}

void MyKernels::add(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  if (QFileInfo(absolute).dir() == QDir(folder_) || opened_.contains(absolute)) return;
  opened_ << absolute;
  emit changed();
}

std::vector<KernelFileItem> MyKernels::items() const {
  QStringList paths = opened_;
  for (const QFileInfo& info : QDir(folder_).entryInfoList({"*.cu"}, QDir::Files))
    paths << info.absoluteFilePath();
  std::sort(paths.begin(), paths.end(), [](const QString& a, const QString& b) {
    return QFileInfo(a).fileName() < QFileInfo(b).fileName();
  });
  std::vector<KernelFileItem> items;
  for (const QString& path : paths) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
      items.push_back({path, std::nullopt, tr("cannot be read: %1").arg(file.errorString())});
      continue;
    }
    items.push_back(kernelFileItem(path, QString::fromUtf8(file.readAll())));
  }
  return items;
}

}  // namespace kwb
