#include "core/hostarray.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace kwb {
namespace {

TEST(HostArray, HalfBitsDecodeExactly) {
  EXPECT_EQ(halfBitsToFloat(0x3c00), 1.0f);
  EXPECT_EQ(halfBitsToFloat(0xc000), -2.0f);
  EXPECT_EQ(halfBitsToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(halfBitsToFloat(0x0001), std::ldexp(1.0f, -24));  // smallest subnormal
  EXPECT_EQ(halfBitsToFloat(0x7bff), 65504.0f);
  EXPECT_TRUE(std::isinf(halfBitsToFloat(0x7c00)));
  EXPECT_TRUE(std::isnan(halfBitsToFloat(0xffff)));  // the poison pattern
}

TEST(HostArray, Bfloat16BitsDecodeExactly) {
  EXPECT_EQ(bfloat16BitsToFloat(0x3f80), 1.0f);
  EXPECT_EQ(bfloat16BitsToFloat(0xc0a0), -5.0f);
  EXPECT_TRUE(std::isnan(bfloat16BitsToFloat(0xffff)));
}

TEST(HostArray, ReadsEachTypeAsDouble) {
  HostArray f32(DType::F32, 2);
  const float values[2] = {1.5f, -0.25f};
  std::memcpy(f32.data(), values, sizeof values);
  EXPECT_EQ(f32.at(1), -0.25);
  EXPECT_EQ(f32.byteSize(), 8u);

  HostArray u8(DType::U8, 1);
  u8.data()[0] = std::byte{200};
  EXPECT_EQ(u8.at(0), 200.0);
}

}  // namespace
}  // namespace kwb
