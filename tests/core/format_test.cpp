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
  EXPECT_EQ(formatMetricValue(1980, "MHz"), "1,980 MHz");
  EXPECT_EQ(formatMetricValue(31.25, ""), "31.250");
  EXPECT_EQ(formatMetricValue(1972.956, "MHz"), "1973 MHz");
  EXPECT_EQ(formatMetricValue(95.12, "J"), "95.1 J");
  EXPECT_EQ(formatMetricValue(NAN, ""), "-");
}

}  // namespace
}  // namespace kwb
