// The strided permute's division by multiplication: the same quotient as a division, for every
// divisor kind (1, powers of two, odd, near 2^31) and dividends up to 2^31 - 1.
#include "kernels/permute/fastdivider.h"

#include <random>

#include <gtest/gtest.h>

namespace kwb::permute {
namespace {

TEST(FastDivider, QuotientsMatchDivision) {
  std::vector<std::uint32_t> divisors{1u,
                                      2u,
                                      3u,
                                      7u,
                                      64u,
                                      100u,
                                      127u,
                                      4096u,
                                      65537u,
                                      1000003u,
                                      (1u << 30) + 1u,
                                      (1u << 31) - 1u,
                                      1u << 31};
  for (std::uint32_t d = 1; d < 2000; d += 37) divisors.push_back(d);
  std::mt19937 rng(3);
  std::uniform_int_distribution<std::uint32_t> any(0, (1u << 31) - 1);
  for (const std::uint32_t d : divisors) {
    const Divider<std::uint32_t> divider(d);
    std::vector<std::uint32_t> dividends{0u, 1u, d - 1, d, (1u << 31) - 1, (1u << 31) - 1 - d};
    for (int k = 0; k < 2000; ++k) dividends.push_back(any(rng));
    for (const std::uint32_t n : dividends) {
      if (n >= (1u << 31)) continue;
      ASSERT_EQ(divider.divide(n), n / d) << n << " / " << d;
    }
  }
}

}  // namespace
}  // namespace kwb::permute
