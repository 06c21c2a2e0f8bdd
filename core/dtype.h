#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace kwb {

// Element types the kernel families work on.
enum class DType { U8, F16, BF16, F32, F64, I32 };

std::string_view toString(DType type);
std::optional<DType> parseDType(std::string_view text);
std::size_t sizeOf(DType type);
// Relative L2 error allowed for a result rounded once to the type: a few units of its rounding.
double verificationTolerance(DType type);

}  // namespace kwb
