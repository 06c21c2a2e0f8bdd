#pragma once

// Division by a destination stride in the strided permute. 32-bit indices divide by multiplying
// with a magic number and shifting (Granlund and Montgomery, as PyTorch's IntDivider): a 32-bit
// division is a dozen or more instructions, this is three. Exact for dividends below 2^31.
#include <cstdint>

#include "kernels/hostdevice.h"

namespace kwb::permute {

template <typename Index>
struct Divider {
  Index divisor = 1;
  explicit Divider(Index d = 1) : divisor(d) {}
  KWB_HOST_DEVICE Index divide(Index n) const { return n / divisor; }
};

template <>
struct Divider<std::uint32_t> {
  std::uint32_t divisor = 1, magic = 1, shift = 0;
  explicit Divider(std::uint32_t d = 1) : divisor(d) {
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

}  // namespace kwb::permute
