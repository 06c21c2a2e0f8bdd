#pragma once

#include <string>
#include <string_view>

namespace kwb {

// The SHA-256 of a text as 64 lowercase hex digits: what names a kernel file's version in the
// history and a compiled module in the cache.
std::string sha256Hex(std::string_view text);

}  // namespace kwb
