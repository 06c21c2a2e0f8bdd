#include "core/dtype.h"

#include <gtest/gtest.h>

namespace kwb {
namespace {

TEST(DType, NamesSizesAndParsing) {
  for (DType t : {DType::U8, DType::F16, DType::BF16, DType::F32, DType::F64, DType::I32})
    EXPECT_EQ(parseDType(toString(t)), t);
  EXPECT_FALSE(parseDType("f8").has_value());
  EXPECT_EQ(sizeOf(DType::BF16), 2u);
  EXPECT_EQ(sizeOf(DType::F64), 8u);
}

TEST(DType, TolerancesFollowThePrecision) {
  EXPECT_EQ(verificationTolerance(DType::U8), 0.0);
  EXPECT_LT(verificationTolerance(DType::F64), verificationTolerance(DType::F32));
  EXPECT_LT(verificationTolerance(DType::F32), verificationTolerance(DType::F16));
  EXPECT_LT(verificationTolerance(DType::F16), verificationTolerance(DType::BF16));
}

}  // namespace
}  // namespace kwb
