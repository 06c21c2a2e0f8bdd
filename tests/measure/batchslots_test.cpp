#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>

#include "measure/timer.h"

namespace kwb {
namespace {

TEST(BatchSlots, EmptyPairsGoAmongTheSamples) {
  for (std::size_t samples = 1; samples <= 64; ++samples) {
    const std::vector<bool> slots = batchSlots(samples);
    const auto timed = static_cast<std::size_t>(std::count(slots.begin(), slots.end(), true));
    EXPECT_EQ(timed, samples);
    EXPECT_EQ(slots.size() - timed, std::max<std::size_t>(1, samples / 4)) << samples;
    EXPECT_FALSE(slots.back()) << samples;
    // Between two empty pairs, and before the first, an equal share of the samples (give or take
    // one where it does not divide evenly).
    const std::size_t share = samples / (slots.size() - timed);
    std::size_t run = 0;
    for (bool sample : slots) {
      if (sample) {
        ++run;
        continue;
      }
      EXPECT_GE(run, share) << samples;
      EXPECT_LE(run, share + 1) << samples;
      run = 0;
    }
  }
  EXPECT_EQ(batchSlots(8),
            (std::vector<bool>{true, true, true, true, false, true, true, true, true, false}));
}

}  // namespace
}  // namespace kwb
