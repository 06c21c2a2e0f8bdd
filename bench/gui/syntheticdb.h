#pragma once

#include <cstddef>
#include <string>

namespace kwb {

// Fills a history database with `runs` synthetic runs (tagged "synthetic"): copy and elementwise
// variants over dtypes, sizes and block sizes, spread over 60 days, ten samples each. What a
// year of tuning sessions might leave behind, for measuring the GUI against a large history.
void writeSyntheticHistory(const std::string& path, std::size_t runs);

}  // namespace kwb
