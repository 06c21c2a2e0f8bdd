#include "measure/verifier.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace kwb {
namespace {

HostArray floats(std::vector<float> values) {
  HostArray a(DType::F32, values.size());
  std::memcpy(a.data(), values.data(), values.size() * sizeof(float));
  return a;
}

TEST(Verifier, RelativeL2Error) {
  Verification v = compareToReference(floats({3, 4}), {3, 4}, 0);
  EXPECT_TRUE(v.checked);
  EXPECT_TRUE(v.passed);
  EXPECT_EQ(v.relError, 0);
  v = compareToReference(floats({3, 4.5f}), {3, 4}, 0.05);
  EXPECT_NEAR(v.relError, 0.1, 1e-12);  // |(0, .5)| / |(3, 4)|
  EXPECT_FALSE(v.passed);
  EXPECT_TRUE(compareToReference(floats({3, 4.5f}), {3, 4}, 0.2).passed);
}

TEST(Verifier, UnwrittenPoisonedOutputFails) {
  HostArray out = floats({1, 2, 3});
  std::memset(out.data() + 4, 0xff, 4);  // element 1 never written
  Verification v = compareToReference(out, {1, 2, 3}, 1.0);
  EXPECT_FALSE(v.passed);
  EXPECT_TRUE(std::isinf(v.relError));
}

TEST(Verifier, SizeMismatchFails) {
  EXPECT_FALSE(compareToReference(floats({1}), {1, 2}, 1.0).passed);
}

}  // namespace
}  // namespace kwb
