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

TEST(HostArray, FloatsRoundToNearestEvenIn16Bits) {
  EXPECT_EQ(floatToHalfBits(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalfBits(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalfBits(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalfBits(70000.0f), 0x7c00);
  EXPECT_EQ(floatToHalfBits(0.1f), 0x2e66);
  EXPECT_EQ(floatToHalfBits(0x1.0p-24f), 0x0001);
  EXPECT_EQ(floatToHalfBits(0x1.0p-14f), 0x0400);
  EXPECT_EQ(floatToHalfBits(1.0f + 0x1.0p-11f), 0x3c00);      // a tie goes to even
  EXPECT_EQ(floatToHalfBits(1.0f + 3 * 0x1.0p-11f), 0x3c02);  // a tie goes to even
  EXPECT_EQ(floatToHalfBits(2047.5f), 0x6800);                // carries into the exponent
  EXPECT_EQ(floatToBfloat16Bits(1.0f), 0x3f80);
  EXPECT_EQ(floatToBfloat16Bits(1.0f + 0x1.0p-8f), 0x3f80);
  EXPECT_EQ(floatToBfloat16Bits(1.0f + 3 * 0x1.0p-8f), 0x3f82);
  for (float v : {0.0f, 1.5f, -3.25f, 255.0f, 0.333f, 1e-6f}) {
    EXPECT_NEAR(halfBitsToFloat(floatToHalfBits(v)), v, std::fabs(v) * 1e-3 + 1e-7) << v;
    EXPECT_NEAR(bfloat16BitsToFloat(floatToBfloat16Bits(v)), v, std::fabs(v) * 8e-3) << v;
  }
}

TEST(HostArray, SetStoresRoundedToTheType) {
  HostArray u8(DType::U8, 3);
  u8.set(0, 3.6);
  u8.set(1, -5);
  u8.set(2, 300);
  EXPECT_EQ(u8.at(0), 4);
  EXPECT_EQ(u8.at(1), 0);
  EXPECT_EQ(u8.at(2), 255);
  HostArray i32(DType::I32, 1);
  i32.set(0, -7);
  EXPECT_EQ(i32.at(0), -7);
  HostArray bf(DType::BF16, 1);
  bf.set(0, 257.0);  // 9 significant bits: rounds to even, 256
  EXPECT_EQ(bf.at(0), 256.0);
  HostArray f(DType::F32, 1);
  f.set(0, 0.1);
  EXPECT_EQ(f.at(0), static_cast<double>(0.1f));
}

}  // namespace
}  // namespace kwb
