#pragma once

#include <QString>
#include <QWidget>

#include <array>
#include <cstdint>
#include <optional>

#include "core/protocol.h"
#include "core/runresult.h"
#include "core/sass.h"

class QLabel;
class QPushButton;
class QTableWidget;

namespace kwb {

class WorkerClient;

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
  // The worker that reads the runs' machine code when asked; none hides the button.
  void setWorker(WorkerClient* worker);
  QString readings() const;  // the sentences, as plain text
  QString sassReading() const;
  QTableWidget* table() const { return table_; }

 signals:
  // The machine code's reading arrived (or could not be had).
  void sassRead();

 private:
  void requestSass();
  void received(const QString& id, const SassReport* report, const QString& error);

  QLabel* readings_;
  QPushButton* sassButton_;
  QLabel* sass_;
  QTableWidget* table_;
  WorkerClient* worker_ = nullptr;
  std::array<std::optional<protocol::Kernel>, 2> kernels_;
  std::array<QString, 2> asked_;
  std::array<std::optional<SassSummary>, 2> summaries_;
};

}  // namespace kwb
