#include "core/format.h"

#include <cmath>
#include <cstdio>

namespace kwb {

std::string formatSeconds(double seconds) {
  char text[32];
  if (seconds <= 0 || !std::isfinite(seconds)) return "-";
  if (seconds < 1e-3)
    std::snprintf(text, sizeof text, "%.2f us", seconds * 1e6);
  else if (seconds < 1)
    std::snprintf(text, sizeof text, "%.3f ms", seconds * 1e3);
  else
    std::snprintf(text, sizeof text, "%.3f s", seconds);
  return text;
}

std::string formatBandwidth(double bytesPerSecond) {
  if (bytesPerSecond <= 0 || !std::isfinite(bytesPerSecond)) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GB/s", bytesPerSecond * 1e-9);
  return text;
}

std::string formatBytes(double bytes) {
  char text[32];
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 4) {
    bytes /= 1024;
    ++unit;
  }
  std::snprintf(text, sizeof text, unit ? "%.2f %s" : "%.0f %s", bytes, units[unit]);
  return text;
}

std::string formatPercent(double fraction) {
  if (fraction <= 0 || !std::isfinite(fraction)) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", fraction * 100);
  return text;
}

std::string formatMetricValue(double value, const std::string& unit) {
  if (!std::isfinite(value)) return "-";
  char text[48];
  if (unit == "B") return formatBytes(value);
  if (unit == "%") {
    std::snprintf(text, sizeof text, "%.1f%%", value);
  } else if (unit == "s" || unit == "ns") {
    return formatSeconds(unit == "ns" ? value * 1e-9 : value);
  } else if (value == std::floor(value) && std::fabs(value) < 1e15) {
    std::string digits = std::to_string(static_cast<long long>(std::fabs(value)));
    for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
      digits.insert(static_cast<std::size_t>(i), ",");
    return (value < 0 ? "-" : "") + digits + (unit.empty() ? "" : " " + unit);
  } else if (unit.empty()) {
    std::snprintf(text, sizeof text, "%.3f", value);
  } else {
    std::snprintf(text, sizeof text, std::fabs(value) < 100 ? "%.1f" : "%.0f", value);
  }
  return unit.empty() || unit == "%" ? text : std::string(text) + " " + unit;
}

}  // namespace kwb
