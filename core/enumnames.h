#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace kwb {

// A fixed table between an enum's values and their names: one place for toString and parse.
template <typename E, std::size_t N>
struct EnumNames {
  std::array<std::pair<E, std::string_view>, N> entries;

  constexpr std::string_view name(E value) const {
    for (const auto& [e, text] : entries)
      if (e == value) return text;
    return "?";
  }
  constexpr std::optional<E> parse(std::string_view text) const {
    for (const auto& [e, name] : entries)
      if (name == text) return e;
    return std::nullopt;
  }
};

}  // namespace kwb
