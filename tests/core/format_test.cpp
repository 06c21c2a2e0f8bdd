#include "core/format.h"

#include <cmath>

#include <gtest/gtest.h>

namespace kwb {
namespace {

TEST(Format, MetricValuesInTheirUnits) {
  EXPECT_EQ(formatMetricValue(64.0 * 1024 * 1024, "B"), "64.00 MiB");
  EXPECT_EQ(formatMetricValue(86.04, "%"), "86.0%");
  EXPECT_EQ(formatMetricValue(46110, "ns"), "46.11 us");
  EXPECT_EQ(formatMetricValue(4.6e-5, "s"), "46.00 us");
  EXPECT_EQ(formatMetricValue(5373952, ""), "5,373,952");
  EXPECT_EQ(formatMetricValue(0.0123, "J"), "12.30 mJ");
  EXPECT_EQ(formatMetricValue(4.5e-4, "J"), "450.00 uJ");
  EXPECT_EQ(formatMetricValue(2.5, "J"), "2.5 J");
  EXPECT_EQ(formatMetricValue(1980, "MHz"), "1,980 MHz");
  EXPECT_EQ(formatMetricValue(31.25, ""), "31.250");
  EXPECT_EQ(formatMetricValue(1972.956, "MHz"), "1973 MHz");
  EXPECT_EQ(formatMetricValue(95.12, "J"), "95.1 J");
  EXPECT_EQ(formatMetricValue(NAN, ""), "-");
}

TEST(Format, RatiosWithThreeDecimals) {
  EXPECT_EQ(formatRatio(0.97), "0.970x");
  EXPECT_EQ(formatRatio(1.0004), "1.000x");
  EXPECT_EQ(formatRatio(12.3456), "12.346x");
}

TEST(Format, PrintableShowsControlBytesAndShortensLongRuns) {
  EXPECT_EQ(printable("block_size 64"), "block_size 64");
  EXPECT_EQ(printable("a\x1b[31mb"), "a\\x1B[31mb");
  EXPECT_EQ(printable("tab\there"), "tab\\x09here");
  EXPECT_EQ(printable("runtime [\xc2\xb5s]"), "runtime [\xc2\xb5s]");  // UTF-8 stays
  EXPECT_EQ(printable("bad \xff byte"), "bad \\xFF byte");
  const std::string shortened = printable("n=" + std::string(100000, '7') + " end");
  EXPECT_EQ(shortened, "n=" + std::string(58, '7') + "... (100002 characters) end");
}

}  // namespace
}  // namespace kwb
