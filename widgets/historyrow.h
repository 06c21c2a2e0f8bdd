#pragma once

#include <QString>
#include <QStringList>

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "db/runstore.h"

namespace kwb {

struct ResultColumn;

// The history table's columns, as result column keys (core/resultcolumns.h); HistoryModel::Column
// follows this order.
inline constexpr std::array<std::string_view, 11> kHistoryColumns{
    "started_at", "kernel",        "dtype",         "problem",          "launch", "device",
    "status",     "time_median_s", "bandwidth_Bps", "ceiling_fraction", "tags"};

// One stored run as the history table and its plots need it: display text made once, numbers kept
// as numbers. Far smaller than a RunRecord, so 100 000 of them fit comfortably in a snapshot.
struct HistoryRow {
  // The table's cells and, for numeric columns, the values they sort by; kHistoryColumns' order.
  std::array<QString, kHistoryColumns.size()> cells;
  std::array<double, kHistoryColumns.size()> sortValues{};
  std::int64_t id = 0;
  std::int64_t startedAt = 0;  // unix ms
  // The plots' view of some cells (the same text, shared, not copied).
  QString kernel;  // family/variant
  QString dtype;
  QString problem;  // "n=1048576 op=relu"
  QString launch;
  QString device;
  QString series;    // kernel and problem: the runs a history plot follows over time
  int seriesId = 0;  // the same number for the same series within one snapshot
  double median = 0, min = 0, max = 0;  // seconds; 0 when not timed
  double bandwidth = 0;
  double ceilingFraction = 0;
};

HistoryRow toHistoryRow(const RunRecord& record);

// The result columns of kHistoryColumns, looked up once.
const std::array<const ResultColumn*, kHistoryColumns.size()>& historyColumns();

// The position of a result column in kHistoryColumns.
constexpr std::size_t historyColumn(std::string_view key) {
  for (std::size_t c = 0; c < kHistoryColumns.size(); ++c)
    if (kHistoryColumns[c] == key) return c;
  return kHistoryColumns.size();
}

using HistorySnapshot = std::shared_ptr<const std::vector<HistoryRow>>;

// Some rows of a snapshot, which the selection keeps alive: a selection of 100 000 runs is a
// vector of pointers, not of copies.
struct HistorySelection {
  HistorySnapshot snapshot;
  std::vector<const HistoryRow*> rows;
};

}  // namespace kwb
