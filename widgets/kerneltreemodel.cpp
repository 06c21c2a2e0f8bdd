#include "widgets/kerneltreemodel.h"

#include <QColor>
#include <QFileInfo>

namespace kwb {

void KernelTreeModel::setCatalog(std::vector<FamilyInfo> families) {
  beginResetModel();
  families_ = std::move(families);
  endResetModel();
}

void KernelTreeModel::setKernelFiles(std::vector<KernelFileItem> files) {
  beginResetModel();
  files_ = std::move(files);
  endResetModel();
}

bool KernelTreeModel::isFilesRow(const QModelIndex& index) const {
  return index.isValid() && index.internalId() == static_cast<quintptr>(filesRow() + 1);
}

const KernelFileItem* KernelTreeModel::file(const QModelIndex& index) const {
  return isFilesRow(index) ? &files_[static_cast<std::size_t>(index.row())] : nullptr;
}

const VariantInfo* KernelTreeModel::variant(const QModelIndex& index) const {
  if (!index.isValid() || index.internalId() == 0) return nullptr;
  if (const KernelFileItem* f = file(index)) return f->variant ? &*f->variant : nullptr;
  return &families_[index.internalId() - 1].variants[static_cast<std::size_t>(index.row())];
}

QModelIndex KernelTreeModel::indexOfFile(const QString& path) const {
  for (std::size_t i = 0; i < files_.size(); ++i)
    if (files_[i].path == path)
      return createIndex(static_cast<int>(i), 0, static_cast<quintptr>(filesRow() + 1));
  return {};
}

QModelIndex KernelTreeModel::indexOf(const QString& family, const QString& variant) const {
  for (std::size_t f = 0; f < families_.size(); ++f) {
    if (QString::fromStdString(families_[f].name) != family) continue;
    const auto& variants = families_[f].variants;
    for (std::size_t v = 0; v < variants.size(); ++v)
      if (QString::fromStdString(variants[v].name) == variant)
        return createIndex(static_cast<int>(v), 0, static_cast<quintptr>(f + 1));
  }
  return {};
}

QModelIndex KernelTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (!hasIndex(row, column, parent)) return {};
  if (!parent.isValid()) return createIndex(row, column, quintptr{0});
  return createIndex(row, column, static_cast<quintptr>(parent.row() + 1));
}

QModelIndex KernelTreeModel::parent(const QModelIndex& child) const {
  if (!child.isValid() || child.internalId() == 0) return {};
  return createIndex(static_cast<int>(child.internalId() - 1), 0, quintptr{0});
}

int KernelTreeModel::rowCount(const QModelIndex& parent) const {
  if (!parent.isValid()) return filesRow() + 1;
  if (parent.column() != 0 || parent.internalId() != 0) return 0;
  if (parent.row() == filesRow()) return static_cast<int>(files_.size());
  return static_cast<int>(families_[static_cast<std::size_t>(parent.row())].variants.size());
}

int KernelTreeModel::columnCount(const QModelIndex&) const {
  return ColumnCount;
}

QVariant KernelTreeModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid()) return {};
  const bool filesTop = index.internalId() == 0 && index.row() == filesRow();
  if (filesTop || isFilesRow(index)) {
    const KernelFileItem* f = file(index);
    const VariantInfo* v = f && f->variant ? &*f->variant : nullptr;
    switch (role) {
      case Qt::DisplayRole:
        if (!f) return index.column() == NameColumn ? tr("My kernels") : tr("your kernel files");
        if (index.column() == NameColumn) {
          // The file's name too where it is not the kernel's: two files may hold one kernel.
          const QFileInfo info(f->path);
          if (!v) return info.fileName();
          const QString name = QString::fromStdString(v->name);
          return info.completeBaseName() == name ? name : name + " (" + info.fileName() + ")";
        }
        return v ? QString::fromStdString(v->summary) : f->error;
      case Qt::ToolTipRole:
        return f ? f->path + "\n" + (v ? QString::fromStdString(v->teaches) : f->error)
                 : tr("Kernel files (.cu with a /* kwb ... */ spec) of your folder and those "
                      "opened with File > Open kernel");
      case TeachesRole: return v ? QString::fromStdString(v->teaches) : f ? f->error : QString();
      case FamilyRole: return v ? QString::fromStdString(v->family) : QString();
      case VariantRole: return v ? QString::fromStdString(v->name) : QString();
      case PathRole: return f ? f->path : QString();
      case Qt::ForegroundRole: return f && !v ? QVariant(QColor(170, 0, 0)) : QVariant();
      default: return {};
    }
  }
  const auto& family = index.internalId() == 0 ? families_[static_cast<std::size_t>(index.row())]
                                               : families_[index.internalId() - 1];
  const VariantInfo* v = variant(index);
  switch (role) {
    case Qt::DisplayRole:
      if (index.column() == NameColumn) return QString::fromStdString(v ? v->name : family.name);
      return QString::fromStdString(v ? v->summary : family.summary);
    case Qt::ToolTipRole:
    case TeachesRole:
      return v ? QString::fromStdString(v->teaches) : QString::fromStdString(family.summary);
    case FamilyRole: return QString::fromStdString(family.name);
    case VariantRole: return v ? QString::fromStdString(v->name) : QString();
    default: return {};
  }
}

QVariant KernelTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  return section == NameColumn ? tr("Kernel") : tr("What it is");
}

}  // namespace kwb
