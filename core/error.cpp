#include "core/error.h"

#include "core/enumnames.h"

namespace kwb {

namespace {
constexpr EnumNames<ErrorKind, 9> kNames{{{
    {ErrorKind::Usage, "usage"},
    {ErrorKind::Param, "param"},
    {ErrorKind::NoDevice, "no_device"},
    {ErrorKind::Cuda, "cuda"},
    {ErrorKind::Verification, "verification"},
    {ErrorKind::Database, "database"},
    {ErrorKind::Cancelled, "cancelled"},
    {ErrorKind::Tool, "tool"},
    {ErrorKind::Internal, "internal"},
}}};
}  // namespace

std::string_view toString(ErrorKind kind) {
  return kNames.name(kind);
}

std::optional<ErrorKind> parseErrorKind(std::string_view name) {
  return kNames.parse(name);
}

Error paramError(const std::string& param, const std::string& what) {
  return Error(ErrorKind::Param, "parameter '" + param + "': " + what, param);
}

}  // namespace kwb
