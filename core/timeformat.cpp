#include "core/timeformat.h"

#include <chrono>
#include <cstdio>

#include "core/valueparse.h"

namespace kwb {

std::string formatTimestamp(std::int64_t unixMs) {
  using namespace std::chrono;
  const sys_seconds seconds{duration_cast<std::chrono::seconds>(milliseconds(unixMs))};
  const auto days = floor<std::chrono::days>(seconds);
  const year_month_day date{days};
  const hh_mm_ss time{seconds - days};
  char text[32];
  std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02d:%02d:%02dZ", static_cast<int>(date.year()),
                static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                static_cast<int>(time.hours().count()), static_cast<int>(time.minutes().count()),
                static_cast<int>(time.seconds().count()));
  return text;
}

std::optional<std::int64_t> parseTimestamp(std::string_view text, std::int64_t nowMs) {
  if (text.size() >= 2 && text.find('-') == std::string_view::npos) {
    const char unit = text.back();
    const std::int64_t factor = unit == 'm'   ? 60'000
                                : unit == 'h' ? 3'600'000
                                : unit == 'd' ? 86'400'000
                                              : 0;
    auto amount = parseInteger(text.substr(0, text.size() - 1));
    // Ages back to the epoch at most: anything longer is a typing error, not a filter.
    if (factor == 0 || !amount || *amount < 0 || *amount > nowMs / factor) return std::nullopt;
    return nowMs - *amount * factor;
  }
  if (!text.empty() && text.back() == 'Z') text.remove_suffix(1);
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  const std::string copy(text);
  int consumed = 0;
  const int fields = std::sscanf(copy.c_str(), "%4d-%2d-%2d%n", &y, &mo, &d, &consumed);
  if (fields != 3) return std::nullopt;
  if (static_cast<std::size_t>(consumed) < copy.size()) {
    int more = 0;
    const char* rest = copy.c_str() + consumed;
    const int timeFields = std::sscanf(rest, "T%2d:%2d%n:%2d%n", &h, &mi, &more, &s, &more);
    if (timeFields < 2 || rest[more] != '\0') return std::nullopt;
  }
  using namespace std::chrono;
  const year_month_day date{year{y}, month{static_cast<unsigned>(mo)},
                            day{static_cast<unsigned>(d)}};
  if (!date.ok() || h > 23 || mi > 59 || s > 59) return std::nullopt;
  const auto point = sys_days{date} + hours{h} + minutes{mi} + seconds{s};
  return duration_cast<milliseconds>(point.time_since_epoch()).count();
}

std::int64_t nowUnixMs() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace kwb
