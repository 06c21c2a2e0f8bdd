#pragma once

#include <QWidget>

#include <cstdint>

#include "core/runresult.h"

class QLabel;
class QTableWidget;

namespace kwb {

// Why two runs differ (core/explain.h): the time's verdict and a sentence per known pattern in
// their counters, above their counters ranked by how far they moved. What `kwb explain` prints.
class ExplainView : public QWidget {
  Q_OBJECT

 public:
  explicit ExplainView(QWidget* parent = nullptr);
  // Ids of 0 name runs not (yet) in the history: the results of a sweep or a lesson.
  void setRuns(std::int64_t beforeId, const RunResult& before, std::int64_t afterId,
               const RunResult& after);
  // No pair to explain: what to do to get one.
  void showHint(const QString& text);
  QString readings() const;  // the sentences, as plain text
  QTableWidget* table() const { return table_; }

 private:
  QLabel* readings_;
  QTableWidget* table_;
};

}  // namespace kwb
