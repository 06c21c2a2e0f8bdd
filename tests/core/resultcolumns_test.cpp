#include "core/resultcolumns.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "core/error.h"
#include "core/metricrollup.h"
#include "core/stats.h"

namespace kwb {
namespace {

RunRecord timedRecord() {
  RunRecord record;
  record.id = 17;
  record.deviceName = "NVIDIA H100 80GB HBM3";
  record.tags = {"baseline", "report"};
  RunResult& r = record.result;
  r.family = "copy";
  r.variant = "vectorized";
  r.problem.set("n", "1048576");
  r.problem.set("dtype", "f16");
  r.samples = {2e-5, 2.1e-5, 1.9e-5};
  r.stats = summarize(r.samples);
  r.bytes = 8 << 20;
  r.bandwidth = 4e11;
  r.ceilingBandwidth = 8e11;
  r.peakBandwidth = 1.6e12;
  r.verification = {true, true, 1.5e-7, 1e-3};
  r.metrics = {{std::string(kHostLaunches), 29, "", ""}};
  return record;
}

TEST(ResultColumns, KeysAreUniqueAndEveryColumnIsComplete) {
  std::set<std::string_view> keys;
  for (const auto& c : resultColumns()) {
    EXPECT_TRUE(keys.insert(c.key).second) << c.key << " twice";
    EXPECT_FALSE(c.header.empty()) << c.key;
    EXPECT_FALSE(c.hint.empty()) << c.key;
    ASSERT_NE(c.value, nullptr) << c.key;
    ASSERT_NE(c.text, nullptr) << c.key;
  }
  EXPECT_THROW(resultColumn("no_such_column"), Error);
}

TEST(ResultColumns, ValuesAreRawAndTextIsFormatted) {
  const RunRecord record = timedRecord();
  const auto& median = resultColumn("time_median_s");
  EXPECT_DOUBLE_EQ(std::get<double>(median.value(record)), 2e-5);
  EXPECT_EQ(median.text(record), "20.00 us");
  EXPECT_EQ(median.header, "event median");
  const auto& ceiling = resultColumn("ceiling_fraction");
  EXPECT_DOUBLE_EQ(std::get<double>(ceiling.value(record)), 0.5);
  EXPECT_EQ(ceiling.text(record), "50.0%");
  EXPECT_EQ(ceiling.header, "of copy ceiling");
  EXPECT_EQ(resultColumn("launches").text(record), "29");
  EXPECT_EQ(resultColumn("verify_rel_error").text(record), "ok 1.5e-07");
  EXPECT_EQ(resultColumn("tags").text(record), "baseline, report");
  EXPECT_EQ(std::get<std::int64_t>(resultColumn("id").value(record)), 17);
  EXPECT_EQ(resultColumn("kernel").text(record), "copy/vectorized");
  EXPECT_EQ(resultColumn("dtype").text(record), "f16");
}

TEST(ResultColumns, WhatWasNotMeasuredHasNoValue) {
  RunRecord failed = timedRecord();
  failed.id = 0;
  failed.result.stats = {};
  failed.result.metrics.clear();
  failed.result.verification = {};
  for (const char* key : {"id", "time_median_s", "bandwidth_Bps", "ceiling_fraction", "traced_s",
                          "launches", "verify_rel_error", "rsd"}) {
    EXPECT_TRUE(std::holds_alternative<std::monostate>(resultColumn(key).value(failed))) << key;
    EXPECT_EQ(resultColumn(key).text(failed), "") << key;
  }
}

TEST(ResultColumns, PickedByKeyInOrder) {
  const auto picked = resultColumns({"status", "time_median_s"});
  ASSERT_EQ(picked.size(), 2u);
  EXPECT_EQ(picked[0]->key, "status");
  EXPECT_FALSE(picked[0]->numeric);
  EXPECT_TRUE(picked[1]->numeric);
  EXPECT_EQ(capitalized(picked[1]->header), "Event median");
  EXPECT_TRUE(std::isnan(sortValue(CellValue(std::string("x")))));
  EXPECT_EQ(sortValue(CellValue()), 0);
}

}  // namespace
}  // namespace kwb
