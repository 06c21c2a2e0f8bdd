#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace kwb {

// Human-readable values for tables: "12.34 us", "3012.5 GB/s", "1.00 GiB", "93.1%".
std::string formatSeconds(double seconds);
std::string formatBandwidth(double bytesPerSecond);
std::string formatBytes(double bytes);
std::string formatPercent(double fraction);
// A ratio of two times, three decimals: "0.970x".
std::string formatRatio(double ratio);
// A metric's value in its unit: bytes as formatBytes, "%" with one decimal, "s" and "ns" as
// formatSeconds, whole numbers with thousands separators, ratios with three decimals, other
// units (MHz, W, J) with one decimal below 100 and none above.
std::string formatMetricValue(double value, const std::string& unit);

// printf into a string: sentences that mix words and figures.
template <typename... Args>
std::string formatted(const char* pattern, Args... args) {
  const int size = std::snprintf(nullptr, 0, pattern, args...);
  std::string text(static_cast<std::size_t>(size > 0 ? size : 0), '\0');
  std::snprintf(text.data(), text.size() + 1, pattern, args...);
  return text;
}

// A message that echoes what someone typed or sent, safe to print on one terminal line: control
// bytes and bytes that are not UTF-8 written as \xNN, and any run of more than 200 characters
// without a space cut to its start and its length ("aaaa... (100000 characters)").
std::string printable(std::string_view text);

}  // namespace kwb
