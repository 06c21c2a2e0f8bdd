#pragma once

#include <QAbstractItemModel>

#include <vector>

#include "core/variantinfo.h"

namespace kwb {

// The registry's catalog as a tree: families at the top, their variants below. A variant's
// "what this teaches" text is its tooltip and TeachesRole.
class KernelTreeModel : public QAbstractItemModel {
  Q_OBJECT

 public:
  enum Column { NameColumn, SummaryColumn, ColumnCount };
  enum Role { TeachesRole = Qt::UserRole + 1, FamilyRole, VariantRole };

  using QAbstractItemModel::QAbstractItemModel;

  void setCatalog(std::vector<FamilyInfo> families);
  // The variant at index, or nullptr for a family row or an invalid index.
  const VariantInfo* variant(const QModelIndex& index) const;
  QModelIndex indexOf(const QString& family, const QString& variant) const;

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  // Internal ids: 0 for family rows; family row + 1 for variant rows, so a variant knows its
  // parent.
  std::vector<FamilyInfo> families_;
};

}  // namespace kwb
