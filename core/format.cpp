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

}  // namespace kwb
