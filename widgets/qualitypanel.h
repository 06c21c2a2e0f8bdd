#pragma once

#include <QGroupBox>

#include <cstdint>

class QLabel;

namespace kwb {

struct RunResult;

// "Against baseline run 12: 0.970x the time (95 % interval ...): FASTER" for a stored run of the
// history at `databasePath`; empty where its configuration has no baseline before it.
QString againstBaselineSentence(const QString& databasePath, std::int64_t runId,
                                const RunResult& run);

// How far the selected run's figure can be trusted (core/measurementquality.h): samples and
// spread, converged or stopped by the budget, throttled samples, SM clock against its maximum,
// event against traced time, how it was timed, a sentence for each doubt, and the run's verdict
// against its configuration's baseline where it has one.
class QualityPanel : public QGroupBox {
  Q_OBJECT

 public:
  explicit QualityPanel(QWidget* parent = nullptr);
  // Null: nothing selected. `againstBaseline` is a sentence, or empty.
  void setRun(const RunResult* run, const QString& againstBaseline = {});
  QString text() const;  // what the panel shows, as plain text

 private:
  QLabel* label_;
};

}  // namespace kwb
