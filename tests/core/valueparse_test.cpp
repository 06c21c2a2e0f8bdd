#include "core/valueparse.h"

#include <gtest/gtest.h>

namespace kwb {
namespace {

TEST(ValueParse, AcceptsTheWaysPeopleWriteSizes) {
  EXPECT_EQ(parseInteger("1048576"), 1048576);
  EXPECT_EQ(parseInteger("2^20"), 1 << 20);
  EXPECT_EQ(parseInteger("1<<20"), 1 << 20);
  EXPECT_EQ(parseInteger("3<<2"), 12);
  EXPECT_EQ(parseInteger("64Ki"), 65536);
  EXPECT_EQ(parseInteger("1Mi"), 1 << 20);
  EXPECT_EQ(parseInteger("2Gi"), std::int64_t{2} << 30);
  EXPECT_EQ(parseInteger("4K"), 4000);
  EXPECT_EQ(parseInteger("1M"), 1000000);
  EXPECT_EQ(parseInteger(" 7 "), 7);
  EXPECT_EQ(parseInteger("-3"), -3);
}

TEST(ValueParse, RejectsEverythingElse) {
  for (const char* bad : {"", "abc", "12x", "3^4", "2^", "2^-1", "2^63", "1.5", "1<<70", "Ki",
                          "1e6", "99999999999999999999", "9999999999Gi"})
    EXPECT_FALSE(parseInteger(bad).has_value()) << bad;
}

TEST(ValueParse, FormatsLargePowersOfTwoAsPowers) {
  EXPECT_EQ(formatInteger(1 << 20), "2^20");
  EXPECT_EQ(formatInteger(65536), "2^16");
  EXPECT_EQ(formatInteger(1024), "1024");
  EXPECT_EQ(formatInteger(1000003), "1000003");
  EXPECT_EQ(formatInteger(0), "0");
}

}  // namespace
}  // namespace kwb
