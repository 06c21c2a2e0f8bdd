#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace kwb {

// The longest text a filter's value may have: SQLite refuses longer LIKE patterns, and nobody
// types one.
inline constexpr std::size_t kLongestFilterText = 1000;

// Which runs a history query returns. Empty strings and unset optionals match everything.
struct HistoryFilter {
  std::string family;
  std::string variant;
  std::string dtype;
  std::string device;  // UUID, or a part of the device name
  std::string status;  // "ok", "failed", ...
  std::string tag;
  std::string text;                   // found in kernel, parameters, error, tags or notes
  std::optional<std::int64_t> since;  // unix milliseconds, inclusive
  std::optional<std::int64_t> until;  // unix milliseconds, exclusive
  std::optional<std::int64_t> sweepId;
  std::size_t limit = 0;  // 0: no limit
  std::size_t offset = 0;
  bool newestFirst = true;
};

}  // namespace kwb
