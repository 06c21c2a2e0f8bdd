#pragma once

#include <QDialog>

#include <cstdint>

#include "core/runresult.h"

class QLabel;
class QTableWidget;

namespace kwb {

// Why two runs differ (core/explain.h): the time's verdict and a sentence per known pattern in
// their counters, above their counters ranked by how far they moved. What `kwb explain` prints.
class ExplainDialog : public QDialog {
  Q_OBJECT

 public:
  ExplainDialog(std::int64_t beforeId, const RunResult& before, std::int64_t afterId,
                const RunResult& after, QWidget* parent = nullptr);
  QString readings() const;  // the sentences, as plain text
  QTableWidget* table() const { return table_; }

 private:
  QLabel* readings_;
  QTableWidget* table_;
};

}  // namespace kwb
