#include "core/error.h"

namespace kwb {

std::string_view toString(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Usage: return "usage";
    case ErrorKind::Param: return "param";
    case ErrorKind::NoDevice: return "no_device";
    case ErrorKind::Cuda: return "cuda";
    case ErrorKind::Verification: return "verification";
    case ErrorKind::Database: return "database";
    case ErrorKind::Cancelled: return "cancelled";
    case ErrorKind::Tool: return "tool";
    case ErrorKind::Internal: return "internal";
  }
  return "internal";
}

std::optional<ErrorKind> parseErrorKind(std::string_view name) {
  for (int k = 0; k <= static_cast<int>(ErrorKind::Internal); ++k)
    if (toString(static_cast<ErrorKind>(k)) == name) return static_cast<ErrorKind>(k);
  return std::nullopt;
}

Error paramError(const std::string& param, const std::string& what) {
  return Error(ErrorKind::Param, "parameter '" + param + "': " + what, param);
}

}  // namespace kwb
