#include "core/measurementquality.h"

#include <gtest/gtest.h>

#include "core/metricrollup.h"
#include "core/stats.h"

namespace kwb {
namespace {

RunResult steadyRun() {
  RunResult r;
  for (int i = 0; i < 40; ++i) r.samples.push_back(50e-6 * (1 + 0.001 * (i % 3)));
  r.stats = summarize(r.samples);
  r.converged = true;
  r.eventOverhead = 1.3e-6;
  r.metrics = {{"gpu.sm_clock", 1980, "MHz", ""},
               {"gpu.sm_clock_max", 1980, "MHz", ""},
               {std::string(kActivityMedian), 49.8e-6, "s", ""}};
  return r;
}

bool says(const MeasurementQuality& q, const std::string& text) {
  for (const auto& doubt : q.doubts)
    if (doubt.find(text) != std::string::npos) return true;
  return false;
}

TEST(MeasurementQuality, ASteadyRunHasNoDoubts) {
  const RunResult run = steadyRun();
  const MeasurementQuality q = assessQuality(run);
  EXPECT_TRUE(q.doubts.empty()) << q.doubts.front();
  EXPECT_EQ(q.samples, 40u);
  EXPECT_NEAR(*q.eventOverTraced, 1.0045, 1e-3);
  const auto rows = qualityRows(run, q);
  EXPECT_EQ(rows[0].second.substr(0, 3), "40,");
  EXPECT_NE(rows[0].second.find("converged"), std::string::npos);
  EXPECT_EQ(rows[1].first, "median");
  EXPECT_EQ(rows[3].second, "1980 of 1980 MHz");
  EXPECT_NE(rows.back().second.find("L2 written and read back"), std::string::npos);
  EXPECT_NE(rows.back().second.find("1.30 us subtracted"), std::string::npos);
}

TEST(MeasurementQuality, EachDoubtIsSaidInASentence) {
  RunResult run = steadyRun();
  run.throttledSamples = {3, 4};
  run.converged = false;
  run.metrics[0].value = 1410;
  run.metrics[2].value = 40e-6;
  run.derived.set("timed_back_to_back", "no");
  run.flush = L2Flush::Write;
  run.eventOverhead = 0;
  const MeasurementQuality q = assessQuality(run);
  EXPECT_TRUE(says(q, "2 of 40 samples were taken while the GPU held its clocks down"));
  EXPECT_FALSE(says(q, "the median is known")) << "40 steady samples pin it down";
  EXPECT_TRUE(says(q, "1410 MHz, 71 % of its 1980 MHz maximum"));
  EXPECT_TRUE(says(q, "1.25x the traced kernel time"));
  EXPECT_TRUE(says(q, "host's launch gaps"));
  EXPECT_TRUE(says(q, "older write-only L2 flush"));
  EXPECT_TRUE(says(q, "events' own time was subtracted"));
  RunResult loose = steadyRun();
  for (std::size_t i = 0; i < loose.samples.size(); ++i)
    loose.samples[i] *= 1 + 0.1 * static_cast<double>(i % 7);
  loose.stats = summarize(loose.samples);
  EXPECT_TRUE(says(assessQuality(loose), "the median is known to -+"));
  run.samples.resize(4);
  run.stats = summarize(run.samples);
  EXPECT_TRUE(says(assessQuality(run), "only 4 samples"));
}

}  // namespace
}  // namespace kwb
