#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "db/historyfilter.h"

namespace kwb {

class Statement;

using SqlValue = std::variant<std::string, std::int64_t>;

// One condition of a history filter, as SQL two ways: `where`, a condition on the runs table
// aliased r, for queries that read runs; `ids`, a query of the same runs' ids that an index
// answers alone, for the history page, which intersects the terms itself. Both take `values`,
// bound in order to their anonymous parameters.
struct FilterTerm {
  std::string where;
  std::string ids;
  std::vector<SqlValue> values;
};

std::vector<FilterTerm> filterTerms(const HistoryFilter& filter);

// " WHERE a AND b ...", or nothing for no terms; its values in order.
std::string whereClause(const std::vector<FilterTerm>& terms);
std::vector<SqlValue> whereValues(const std::vector<FilterTerm>& terms);

// Binds values to a statement's parameters 1, 2, ...
void bindValues(Statement& statement, const std::vector<SqlValue>& values);

}  // namespace kwb
