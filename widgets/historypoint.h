#pragma once

#include <QHash>
#include <QString>

#include <cstdint>
#include <string>

#include "db/runstore.h"

namespace kwb {

// A run as the history's plots need it: numbers as numbers, and the text they label with.
struct HistoryPoint {
  std::int64_t id = 0;
  std::int64_t startedAt = 0;  // unix ms
  QString kernel;              // family/variant
  QString dtype;
  QString problem;  // "dtype=f32 n=2^20 op=relu"
  QString launch;
  QString device;
  QString series;    // kernel and problem: the runs a history plot follows over time
  int seriesId = 0;  // the same number for the same series from one reader
  double median = 0, min = 0, max = 0;  // seconds; 0 when not timed
  double bandwidth = 0;
  double ceilingFraction = 0;
};

// Makes points from stored runs, formatting each distinct kernel, problem and launch once: ten
// thousand runs of a tuning session share a few dozen of them.
class HistoryPointReader {
 public:
  HistoryPoint operator()(const RunPoint& run);

 private:
  struct Kernel {
    QString text;
    quint32 number;
  };
  struct Problem {
    QString text, dtype;
    quint32 number;
  };
  struct Series {
    QString text;
    int id;
  };
  QHash<QString, Kernel> kernels_;
  QHash<QString, Problem> problems_;
  QHash<QString, QString> launches_;
  QHash<quint64, Series> series_;  // by kernel and problem number
};

}  // namespace kwb
