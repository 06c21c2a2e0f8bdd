#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kwb {

// Now, in unix milliseconds: the time stamps the history keeps.
std::int64_t nowUnixMs();

// "2026-11-21T10:04:05Z" from unix milliseconds (UTC).
std::string formatTimestamp(std::int64_t unixMs);

// A point in time for history filters: "2026-11-21", "2026-11-21T10:04" or "...:05" (UTC,
// optional trailing Z), or an age before now: "30m", "12h", "7d". Unix milliseconds.
std::optional<std::int64_t> parseTimestamp(std::string_view text, std::int64_t nowMs);

}  // namespace kwb
