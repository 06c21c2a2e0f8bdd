#pragma once

#include <algorithm>
#include <numeric>
#include <random>

#include "kernels/permute/permuteplan.h"

namespace kwb::permute {

// A random permutation of minRank to maxRank dimensions of small and odd sizes, at most 60000
// elements: what the tilings' element-by-element checks walk through.
inline Permutation randomPermutation(std::mt19937& rng, int minRank, int maxRank) {
  const std::int64_t sizes[] = {2, 3, 5, 7, 16, 33, 64, 100};
  const int rank = std::uniform_int_distribution<int>(minRank, maxRank)(rng);
  Permutation p;
  std::int64_t elements = 1;
  for (int d = 0; d < rank; ++d) {
    std::int64_t size = sizes[std::uniform_int_distribution<int>(0, 7)(rng)];
    if (elements * size > 60000) size = 2;
    p.shape.push_back(size);
    elements *= size;
  }
  p.perm.resize(static_cast<std::size_t>(rank));
  std::iota(p.perm.begin(), p.perm.end(), 0);
  std::shuffle(p.perm.begin(), p.perm.end(), rng);
  return p;
}

}  // namespace kwb::permute
