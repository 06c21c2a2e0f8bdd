#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/dtype.h"

namespace kwb {

// A device buffer's bytes on the host, read element by element as double for verification.
class HostArray {
 public:
  HostArray(DType type, std::size_t count)
      : type_(type), count_(count), bytes_(count * sizeOf(type)) {}

  DType type() const { return type_; }
  std::size_t size() const { return count_; }
  std::byte* data() { return bytes_.data(); }
  const std::byte* data() const { return bytes_.data(); }
  std::size_t byteSize() const { return bytes_.size(); }

  double at(std::size_t i) const;
  // Stores `value` rounded to the type: to nearest even for floating types, to nearest and
  // saturated for u8 and i32.
  void set(std::size_t i, double value);

 private:
  DType type_;
  std::size_t count_;
  std::vector<std::byte> bytes_;
};

// IEEE binary16 and bfloat16 bit patterns to float, exactly.
float halfBitsToFloat(std::uint16_t bits);
float bfloat16BitsToFloat(std::uint16_t bits);
// float to binary16 and bfloat16, rounded to nearest even (NaN stays NaN).
std::uint16_t floatToHalfBits(float value);
std::uint16_t floatToBfloat16Bits(float value);

}  // namespace kwb
