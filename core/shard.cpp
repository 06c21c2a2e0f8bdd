#include "core/shard.h"

#include "core/error.h"
#include "core/format.h"
#include "core/valueparse.h"

namespace kwb {

Shard parseShard(std::string_view text) {
  const auto slash = text.find('/');
  if (slash != std::string_view::npos) {
    const auto index = parseInteger(text.substr(0, slash));
    const auto count = parseInteger(text.substr(slash + 1));
    if (index && count && *count >= 1 && *index >= 0 && *index < *count)
      return {static_cast<std::size_t>(*index), static_cast<std::size_t>(*count)};
  }
  throw Error(ErrorKind::Usage, "--shard '" + printable(text) +
                                    "' is not a share I/N of N tasks (0 <= I < N), as 2/8");
}

std::string toString(const Shard& shard) {
  return std::to_string(shard.index) + "/" + std::to_string(shard.count);
}

}  // namespace kwb
