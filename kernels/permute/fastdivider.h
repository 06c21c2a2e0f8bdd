#pragma once

// Division by the sizes permute indices run over: the strided permute's destination strides,
// packed and general tiles' counts and dimensions, the narrow kernel's batch order. 32-bit
// indices divide by multiplying with a magic number and shifting (Granlund and Montgomery, as
// PyTorch's IntDivider): a 32-bit division is a dozen or more instructions, this is three. Exact
// for dividends below 2^31.
#include <cstdint>
#include <type_traits>

#include "kernels/hostdevice.h"

namespace kwb::permute {

template <typename Index>
struct Divider {
  Index divisor = 1;
  Divider() = default;
  explicit Divider(Index d) : divisor(d) {}
  KWB_HOST_DEVICE Index divide(Index n) const { return n / divisor; }
};

template <>
struct Divider<std::uint32_t> {
  std::uint32_t divisor = 1, magic = 1, shift = 0;  // by default, dividing by 1
  Divider() = default;
  explicit Divider(std::uint32_t d) : divisor(d) {
    while (shift < 32 && (std::uint64_t{1} << shift) < d) ++shift;
    magic = static_cast<std::uint32_t>(
        ((std::uint64_t{1} << 32) * ((std::uint64_t{1} << shift) - d)) / d + 1);
  }
  KWB_HOST_DEVICE std::uint32_t divide(std::uint32_t n) const {
#ifdef __CUDA_ARCH__
    const std::uint32_t high = __umulhi(n, magic);
#else
    const auto high = static_cast<std::uint32_t>((std::uint64_t{n} * magic) >> 32);
#endif
    return (high + n) >> shift;
  }
};

// Indices below 2^31 (32-bit ones) divide by multiplying; 64-bit ones divide.
template <typename Index>
using DividerOf = Divider<std::conditional_t<sizeof(Index) == 4, std::uint32_t, Index>>;

}  // namespace kwb::permute
