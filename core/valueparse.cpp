#include "core/valueparse.h"

#include <charconv>
#include <limits>

namespace kwb {
namespace {

std::optional<std::int64_t> parsePlain(std::string_view text) {
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc{} || ptr != end || text.empty()) return std::nullopt;
  return value;
}

std::optional<std::int64_t> shifted(std::int64_t base, std::int64_t exponent) {
  if (base < 0 || exponent < 0 || exponent > 62) return std::nullopt;
  if (base != 0 && base > (std::numeric_limits<std::int64_t>::max() >> exponent))
    return std::nullopt;
  return base << exponent;
}

}  // namespace

std::optional<std::int64_t> parseInteger(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (text.empty()) return std::nullopt;

  if (auto caret = text.find('^'); caret != std::string_view::npos) {
    auto base = parsePlain(text.substr(0, caret));
    auto exponent = parsePlain(text.substr(caret + 1));
    if (!base || *base != 2 || !exponent) return std::nullopt;
    return shifted(1, *exponent);
  }
  if (auto shift = text.find("<<"); shift != std::string_view::npos) {
    auto base = parsePlain(text.substr(0, shift));
    auto exponent = parsePlain(text.substr(shift + 2));
    if (!base || !exponent) return std::nullopt;
    return shifted(*base, *exponent);
  }

  struct Suffix {
    std::string_view text;
    std::int64_t factor;
  };
  static constexpr Suffix kSuffixes[] = {{"Ki", 1LL << 10}, {"Mi", 1LL << 20}, {"Gi", 1LL << 30},
                                         {"K", 1000},       {"M", 1000000},    {"G", 1000000000}};
  for (const auto& suffix : kSuffixes) {
    if (text.size() > suffix.text.size() && text.ends_with(suffix.text)) {
      auto base = parsePlain(text.substr(0, text.size() - suffix.text.size()));
      if (!base || *base < 0 || *base > std::numeric_limits<std::int64_t>::max() / suffix.factor)
        return std::nullopt;
      return *base * suffix.factor;
    }
  }
  return parsePlain(text);
}

std::string formatInteger(std::int64_t value) {
  if (value >= 65536 && (value & (value - 1)) == 0) {
    int exponent = 0;
    while ((std::int64_t{1} << exponent) != value) ++exponent;
    return "2^" + std::to_string(exponent);
  }
  return std::to_string(value);
}

}  // namespace kwb
