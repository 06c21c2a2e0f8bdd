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

template <typename T>
void store(std::byte* p, T value) {
  std::memcpy(p, &value, sizeof(T));
}

template <typename T>
T saturated(double value) {
  const double r = std::nearbyint(value);
  if (!(r >= std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  if (r >= std::numeric_limits<T>::max()) return std::numeric_limits<T>::max();
  return static_cast<T>(r);
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

std::uint16_t floatToHalfBits(float value) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
  const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
  const float magnitude = std::fabs(value);
  if (std::isnan(value)) return static_cast<std::uint16_t>(sign | 0x7e00u);
  if (magnitude >= 65520.0f) return static_cast<std::uint16_t>(sign | 0x7c00u);  // rounds to inf
  // Scaling by a power of two is exact; nearbyint rounds to nearest even in the default mode.
  if (magnitude < 0x1.0p-14f)  // subnormal: units of 2^-24
    return static_cast<std::uint16_t>(
        sign | static_cast<std::uint16_t>(std::nearbyint(std::ldexp(magnitude, 24))));
  int exponent = 0;
  std::frexp(magnitude, &exponent);  // magnitude in [2^(exponent-1), 2^exponent)
  // 11 significant bits: units of 2^(exponent - 11); a carry into the exponent field is right.
  const auto units =
      static_cast<std::uint32_t>(std::nearbyint(std::ldexp(magnitude, 11 - exponent)));
  const std::uint32_t field = static_cast<std::uint32_t>(exponent + 14) << 10;
  return static_cast<std::uint16_t>(sign | (field + units - 0x400u));
}

std::uint16_t floatToBfloat16Bits(float value) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
  if (std::isnan(value)) return static_cast<std::uint16_t>((bits >> 16) | 0x40u);
  const std::uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<std::uint16_t>((bits + rounding) >> 16);
}

double HostArray::at(std::size_t i) const {
  const std::byte* p = bytes_.data() + i * sizeOf(type_);
  switch (type_) {
    case DType::U8: return static_cast<double>(load<std::uint8_t>(p));
    case DType::F16: return halfBitsToFloat(load<std::uint16_t>(p));
    case DType::BF16: return bfloat16BitsToFloat(load<std::uint16_t>(p));
    case DType::F32: return load<float>(p);
    case DType::F64: return load<double>(p);
    case DType::I32: return load<std::int32_t>(p);
  }
  return 0;
}

void HostArray::set(std::size_t i, double value) {
  std::byte* p = bytes_.data() + i * sizeOf(type_);
  switch (type_) {
    case DType::U8: return store(p, saturated<std::uint8_t>(value));
    case DType::F16: return store(p, floatToHalfBits(static_cast<float>(value)));
    case DType::BF16: return store(p, floatToBfloat16Bits(static_cast<float>(value)));
    case DType::F32: return store(p, static_cast<float>(value));
    case DType::F64: return store(p, value);
    case DType::I32: return store(p, saturated<std::int32_t>(value));
  }
}

}  // namespace kwb
