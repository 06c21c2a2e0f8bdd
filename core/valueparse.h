#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kwb {

// Integers as people write sizes: 1048576, 2^20, 1<<20, 64Ki, 1Mi, 1Gi, 4K (K, M, G are powers
// of 1000; Ki, Mi, Gi powers of 1024). Nothing else: no signs beyond '-', no trailing text.
std::optional<std::int64_t> parseInteger(std::string_view text);

// Powers of two from 2^16 on print as 2^k, the rest in decimal.
std::string formatInteger(std::int64_t value);

}  // namespace kwb
