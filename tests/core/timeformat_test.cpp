#include "core/timeformat.h"

#include <gtest/gtest.h>

namespace kwb {
namespace {

TEST(TimeFormat, FormatsUtc) {
  EXPECT_EQ(formatTimestamp(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(formatTimestamp(1795255445000), "2026-11-21T10:04:05Z");
}

TEST(TimeFormat, ParsesDatesTimesAndAges) {
  const std::int64_t now = 1795255445000;
  EXPECT_EQ(parseTimestamp("2026-11-21T10:04:05Z", now), 1795255445000);
  EXPECT_EQ(parseTimestamp("2026-11-21T10:04:05", now), 1795255445000);
  EXPECT_EQ(parseTimestamp("2026-11-21T10:04", now), 1795255440000);
  EXPECT_EQ(parseTimestamp("2026-11-21", now), 1795219200000);
  EXPECT_EQ(parseTimestamp("2h", now), now - 7'200'000);
  EXPECT_EQ(parseTimestamp("7d", now), now - 7 * 86'400'000LL);
  EXPECT_EQ(parseTimestamp("30m", now), now - 1'800'000);
}

TEST(TimeFormat, RejectsNonsense) {
  for (const char* bad : {"", "yesterday", "2026-13-01", "2026-02-30", "2026-11-21T25:00", "5y",
                          "2026-11-21 junk", "h"})
    EXPECT_FALSE(parseTimestamp(bad, 0).has_value()) << bad;
}

}  // namespace
}  // namespace kwb
