#include "core/jsoncodec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace kwb {
namespace {

RunResult sampleResult() {
  RunResult r;
  r.family = "copy";
  r.variant = "vectorized";
  r.problem.set("n", "1048576");
  r.problem.set("dtype", "f32");
  r.launch.set("block_size", "256");
  r.derived.set("grid", "4096");
  r.mode = TimingMode::Hot;
  r.status = RunStatus::Ok;
  r.verification = {true, true, 0.0, 0.0};
  r.samples = {1e-5, 1.1e-5, 0.9e-5};
  r.stats = summarize(r.samples);
  r.converged = true;
  r.bytes = 8 << 20;
  r.bandwidth = 8e11;
  r.ceilingBandwidth = 3e12;
  r.peakBandwidth = 3.35e12;
  r.deviceUuid = "GPU-1";
  r.appVersion = "0.1.0";
  r.startedAt = 1795255445000;
  r.metrics = {{"dram__bytes_read.sum", 4e6, "B", ""},
               {"dram__bytes_read.sum", 3e6, "B", "copyKernel"}};
  r.throttledSamples = {0, 3};
  r.notice = "Hardware counters need permission.";
  return r;
}

TEST(JsonCodec, RunResultRoundTrips) {
  const RunResult r = sampleResult();
  const RunResult back = runResultFromJson(nlohmann::json::parse(toJson(r).dump()));
  EXPECT_EQ(back.family, r.family);
  EXPECT_EQ(back.problem, r.problem);
  EXPECT_EQ(back.launch, r.launch);
  EXPECT_EQ(back.derived, r.derived);
  EXPECT_EQ(back.mode, TimingMode::Hot);
  EXPECT_EQ(back.samples, r.samples);
  EXPECT_DOUBLE_EQ(back.stats.median, r.stats.median);
  EXPECT_EQ(back.bytes, r.bytes);
  EXPECT_DOUBLE_EQ(back.ceilingFraction(), r.ceilingFraction());
  EXPECT_EQ(back.metrics, r.metrics);
  EXPECT_EQ(back.throttledSamples, r.throttledSamples);
  EXPECT_EQ(back.notice, r.notice);
  EXPECT_EQ(back.startedAt, r.startedAt);
  EXPECT_TRUE(back.verification.passed);
}

TEST(JsonCodec, NonFiniteErrorsComeBackAsInfinite) {
  RunResult r = sampleResult();
  r.verification.relError = std::numeric_limits<double>::infinity();
  const auto json = nlohmann::json::parse(toJson(r).dump());  // as it travels
  EXPECT_TRUE(json["verification"]["rel_error"].is_null());
  EXPECT_TRUE(std::isinf(runResultFromJson(json).verification.relError));
}

TEST(JsonCodec, VariantInfoRoundTrips) {
  VariantInfo v{"copy",
                "vectorized",
                "one line",
                "teaches",
                {integerParam("n", ParamRole::Problem, 1, 100, "10", "elements", "size"),
                 choiceParam("dtype", ParamRole::Problem, {"f32", "f16"}, "f32", "", "type")},
                "n"};
  const VariantInfo back = variantInfoFromJson(toJson(v));
  EXPECT_EQ(back.name, "vectorized");
  ASSERT_EQ(back.params.size(), 2u);
  EXPECT_EQ(back.params[0].max, 100);
  EXPECT_EQ(back.params[1].choices, (std::vector<std::string>{"f32", "f16"}));
  EXPECT_EQ(back.sizeParam, "n");
}

}  // namespace
}  // namespace kwb

namespace kwb {
namespace {

TEST(JsonCodec, ParamSpecsOfEveryKindRoundTrip) {
  ParamSpec waves = integerParam("waves", ParamRole::Launch, 1, 64, "auto", "waves", "grid", 1);
  waves.allowsAuto = true;
  for (const ParamSpec& spec :
       {waves, choiceParam("dtype", ParamRole::Problem, {"f32", "f16"}, "f32", "", "type"),
        listParam("perm", ParamRole::Problem, 0, 7, 8, "0,2,1", "", "axis order")}) {
    const ParamSpec back = paramSpecFromJson(toJson(spec));
    EXPECT_EQ(back.kind, spec.kind) << spec.name;
    EXPECT_EQ(back.min, spec.min);
    EXPECT_EQ(back.max, spec.max);
    EXPECT_EQ(back.maxLength, spec.maxLength);
    EXPECT_EQ(back.choices, spec.choices);
    EXPECT_EQ(back.allowsAuto, spec.allowsAuto);
    EXPECT_EQ(back.allowedText(), spec.allowedText());
  }
}

TEST(JsonCodec, SassReportsRoundTrip) {
  SassReport report{"elementwise", "packed", "sm_90", "123-ab", {}, true, "a notice"};
  report.kernels.push_back({"_Z1kv", "k", "/*0000*/        EXIT ;\n"});
  const SassReport back = sassReportFromJson(toJson(report));
  EXPECT_EQ(back.family, "elementwise");
  EXPECT_EQ(back.variant, "packed");
  EXPECT_EQ(back.arch, "sm_90");
  EXPECT_EQ(back.binary, "123-ab");
  EXPECT_TRUE(back.cached);
  EXPECT_EQ(back.notice, "a notice");
  ASSERT_EQ(back.kernels.size(), 1u);
  EXPECT_EQ(back.kernels[0].symbol, "_Z1kv");
  EXPECT_EQ(back.kernels[0].name, "k");
  EXPECT_EQ(back.kernels[0].listing, report.kernels[0].listing);
  EXPECT_FALSE(toJson(SassReport{}).contains("notice"));
}

}  // namespace
}  // namespace kwb
