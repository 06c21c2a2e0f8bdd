#pragma once

#include <QAbstractItemModel>

#include <optional>
#include <vector>

#include "core/variantinfo.h"

namespace kwb {

// A kernel file listed under "My kernels": its variant as its spec describes it, or why the
// spec cannot be read.
struct KernelFileItem {
  QString path;
  std::optional<VariantInfo> variant;
  QString error;
};

// The registry's catalog as a tree: families at the top, their variants below, and last the
// user's kernel files under "My kernels". A variant's "what this teaches" text is its tooltip and
// TeachesRole.
class KernelTreeModel : public QAbstractItemModel {
  Q_OBJECT

 public:
  enum Column { NameColumn, SummaryColumn, ColumnCount };
  enum Role { TeachesRole = Qt::UserRole + 1, FamilyRole, VariantRole, PathRole };

  using QAbstractItemModel::QAbstractItemModel;

  void setCatalog(std::vector<FamilyInfo> families);
  void setKernelFiles(std::vector<KernelFileItem> files);
  // The variant at index, or nullptr for a family row, a file whose spec is wrong or an invalid
  // index.
  const VariantInfo* variant(const QModelIndex& index) const;
  QModelIndex indexOf(const QString& family, const QString& variant) const;
  QModelIndex indexOfFile(const QString& path) const;

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  // Internal ids: 0 for top rows; the parent's row + 1 for the rows below, so a child knows its
  // parent. The last top row is "My kernels", past the families.
  bool isFilesRow(const QModelIndex& index) const;
  const KernelFileItem* file(const QModelIndex& index) const;
  int filesRow() const { return static_cast<int>(families_.size()); }

  std::vector<FamilyInfo> families_;
  std::vector<KernelFileItem> files_;
};

}  // namespace kwb
