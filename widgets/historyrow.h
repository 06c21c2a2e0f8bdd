#pragma once

#include <QString>

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

// One stored run as the history table shows it: the cells' text, made once off the GUI thread.
struct HistoryRow {
  std::int64_t id = 0;
  std::array<QString, kHistoryColumns.size()> cells;
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

// What the loader hands the GUI: the filtered runs' ids in table order, and pages of rows.
using HistoryIds = std::shared_ptr<const std::vector<std::int64_t>>;
using HistoryRows = std::shared_ptr<const std::vector<HistoryRow>>;

}  // namespace kwb
