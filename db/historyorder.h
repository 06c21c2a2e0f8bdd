#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "db/historyfilter.h"

namespace kwb {

class Database;

// The ids of the runs a filter keeps, ordered by one of the history table's columns (its result
// column key: "started_at", "kernel", "bandwidth_Bps", ...; ties by id; time for an unknown key).
// What the history page scrolls through, made without sorting or reading a run at a million runs:
// the order is a walk of the column's index (runsInOrder), an index answers each filter term, and
// the terms are intersected in memory (keepMatching).
std::vector<std::int64_t> orderedRunIds(Database& db, const HistoryFilter& filter,
                                        std::string_view column, bool descending);

// Every run's id in a column's ascending order. It changes only with the history, so the page
// keeps it across filters.
std::vector<std::int64_t> runsInOrder(Database& db, std::string_view column);

// Keeps, in their order, the ids of the runs the filter keeps.
void keepMatching(Database& db, const HistoryFilter& filter, std::vector<std::int64_t>& ids);

// The query that walks a column's index, ascending: the ids of every run. Not the device's,
// which walks each device's runs by name.
std::string historyOrderQuery(std::string_view column);

}  // namespace kwb
