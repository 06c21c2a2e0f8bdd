#include "core/traffic.h"

#include <gtest/gtest.h>

#include "core/measurementquality.h"

namespace kwb {
namespace {

RunResult runMoving(double read, double written, TimingMode mode = TimingMode::Cold) {
  RunResult r;
  r.bytes = 64 << 20;  // declared
  r.mode = mode;
  r.metrics = {{"dram__bytes_read.sum", read, "B", ""},
               {"dram__bytes_write.sum", written, "B", ""}};
  return r;
}

TEST(Traffic, WithinTenPercentIsAsDeclared) {
  const auto t = checkTraffic(runMoving(33.0 * (1 << 20), 33.0 * (1 << 20)));
  ASSERT_TRUE(t);
  EXPECT_NEAR(t->ratio, 66.0 / 64, 1e-12);
  EXPECT_TRUE(t->reading.empty());
}

TEST(Traffic, MoreThanDeclaredPointsAtReReadsAndSectors) {
  const auto t = checkTraffic(runMoving(96.0 * (1 << 20), 32.0 * (1 << 20)));
  ASSERT_TRUE(t);
  EXPECT_DOUBLE_EQ(t->ratio, 2.0);
  EXPECT_NE(t->reading.find("2.00x"), std::string::npos) << t->reading;
  EXPECT_NE(t->reading.find("uncoalesced"), std::string::npos) << t->reading;
}

TEST(Traffic, LessThanDeclaredPointsAtL2) {
  const auto cold = checkTraffic(runMoving(16.0 * (1 << 20), 16.0 * (1 << 20)));
  ASSERT_TRUE(cold);
  EXPECT_NE(cold->reading.find("0.50x"), std::string::npos);
  EXPECT_NE(cold->reading.find("not cold"), std::string::npos) << cold->reading;
  const auto hot = checkTraffic(runMoving(1 << 20, 1 << 20, TimingMode::Hot));
  ASSERT_TRUE(hot);
  EXPECT_NE(hot->reading.find("hot timing"), std::string::npos) << hot->reading;
}

TEST(Traffic, NeedsBothCountersAndDeclaredBytes) {
  RunResult r = runMoving(1, 1);
  r.metrics.pop_back();
  EXPECT_FALSE(checkTraffic(r));
  r = runMoving(1, 1);
  r.bytes = 0;
  EXPECT_FALSE(checkTraffic(r));
}

TEST(Traffic, IsARowOfTheQuality) {
  RunResult r = runMoving(64.0 * (1 << 20), 64.0 * (1 << 20));
  r.samples = {1e-5, 1e-5};
  r.stats.count = 2;
  r.stats.median = 1e-5;
  bool found = false;
  for (const auto& [label, text] : qualityRows(r, assessQuality(r)))
    if (label == "DRAM traffic") {
      found = true;
      EXPECT_EQ(text, "2.00x the bytes the variant needs (128.00 MiB of 64.00 MiB)");
    }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace kwb
