#include "core/hostarray.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace kwb {
namespace {
template <typename T>
T load(const std::byte* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}
}  // namespace

float halfBitsToFloat(std::uint16_t bits) {
  const std::uint32_t sign = (bits >> 15) & 1u;
  const int exponent = (bits >> 10) & 0x1f;
  const std::uint32_t mantissa = bits & 0x3ffu;
  float magnitude;
  if (exponent == 0)
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);  // subnormal
  else if (exponent == 31)
    magnitude =
        mantissa ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  else
    magnitude = std::ldexp(static_cast<float>(mantissa | 0x400u), exponent - 25);
  return sign ? -magnitude : magnitude;
}

float bfloat16BitsToFloat(std::uint16_t bits) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

double HostArray::at(std::size_t i) const {
  const std::byte* p = bytes_.data() + i * sizeOf(type_);
  switch (type_) {
    case DType::U8: return static_cast<double>(load<std::uint8_t>(p));
    case DType::F16: return halfBitsToFloat(load<std::uint16_t>(p));
    case DType::BF16: return bfloat16BitsToFloat(load<std::uint16_t>(p));
    case DType::F32: return load<float>(p);
    case DType::F64: return load<double>(p);
  }
  return 0;
}

}  // namespace kwb
