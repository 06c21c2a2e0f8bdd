#include "core/dtype.h"

#include "core/enumnames.h"

namespace kwb {
namespace {
constexpr EnumNames<DType, 6> kNames{{{
    {DType::U8, "u8"},
    {DType::F16, "f16"},
    {DType::BF16, "bf16"},
    {DType::F32, "f32"},
    {DType::F64, "f64"},
    {DType::I32, "i32"},
}}};
}  // namespace

std::string_view toString(DType type) {
  return kNames.name(type);
}

std::optional<DType> parseDType(std::string_view text) {
  return kNames.parse(text);
}

std::size_t sizeOf(DType type) {
  switch (type) {
    case DType::U8: return 1;
    case DType::F16:
    case DType::BF16: return 2;
    case DType::F32:
    case DType::I32: return 4;
    case DType::F64: return 8;
  }
  return 0;
}

double verificationTolerance(DType type) {
  switch (type) {
    case DType::U8:
    case DType::I32: return 0.0;
    case DType::F16: return 2e-3;
    case DType::BF16: return 1.6e-2;
    case DType::F32: return 1e-5;
    case DType::F64: return 1e-12;
  }
  return 0.0;
}

}  // namespace kwb
