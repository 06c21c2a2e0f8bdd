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

std::string formatRatio(double ratio) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3fx", ratio);
  return text;
}

std::string formatMetricValue(double value, const std::string& unit) {
  if (!std::isfinite(value)) return "-";
  char text[48];
  if (unit == "B") return formatBytes(value);
  // A kernel call takes millijoules or less.
  if (unit == "J" && value != 0 && std::fabs(value) < 1) {
    const bool micro = std::fabs(value) < 1e-3;
    std::snprintf(text, sizeof text, "%.2f %s", value * (micro ? 1e6 : 1e3), micro ? "uJ" : "mJ");
    return text;
  }
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

namespace {

// The length of the UTF-8 sequence starting at text[i], or 0 where none starts there.
std::size_t utf8Length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  const std::size_t n = lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  return n;
}

std::string escaped(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t n = c >= 0x80 ? utf8Length(text, i) : (c >= 0x20 && c != 0x7F ? 1 : 0);
    if (n > 0) {
      out.append(text.substr(i, n));
      i += n;
      continue;
    }
    char hex[8];
    std::snprintf(hex, sizeof hex, "\\x%02X", c);
    out += hex;
    ++i;
  }
  return out;
}

}  // namespace

std::string printable(std::string_view text) {
  constexpr std::size_t kLongest = 200, kKept = 60;
  std::string out;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(start, end - start);
    out += word.size() > kLongest ? escaped(word.substr(0, kKept)) + "... (" +
                                        std::to_string(word.size()) + " characters)"
                                  : escaped(word);
    if (end < text.size()) out += ' ';
    start = end + 1;
  }
  return out;
}

}  // namespace kwb
