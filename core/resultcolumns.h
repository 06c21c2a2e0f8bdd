#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/runrecord.h"

namespace kwb {

// A cell's value as stored: nothing (not measured, not stored), a whole number, a number in SI
// units (seconds, bytes/s, fractions) or text.
using CellValue = std::variant<std::monostate, std::int64_t, double, std::string>;

// One column of a run listing: the CLI's tables, CSV export, the results and history tables,
// the report. Each output picks its columns by key; adding a column is one entry in the table.
struct ResultColumn {
  std::string_view key;     // stable machine name; CSV's header ("time_median_s")
  std::string_view header;  // for people, lower case ("event median"); windows capitalize it
  std::string_view hint;    // what it means, for tooltips
  bool numeric;             // aligned right, sorted by value
  CellValue (*value)(const RunRecord&);
  std::string (*text)(const RunRecord&);  // for people ("12.3 us"); empty when there is none
};

// Every column, in the order CSV export writes those it exports.
const std::vector<ResultColumn>& resultColumns();
// Throws Error(Internal) for a key no column has: a programming error, caught by the tests.
const ResultColumn& resultColumn(std::string_view key);
std::vector<const ResultColumn*> resultColumns(std::initializer_list<std::string_view> keys);

// The header with a capital first letter, as windows show it.
std::string capitalized(std::string_view header);
// A number for sorting: the value, 0 for none, NaN for text.
double sortValue(const CellValue& value);

}  // namespace kwb
