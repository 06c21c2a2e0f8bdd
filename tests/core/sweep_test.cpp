#include "core/sweep.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kwb {
namespace {

std::vector<ParamSpec> specs() {
  return {integerParam("n", ParamRole::Problem, 1, std::int64_t{1} << 34, "1024", "", ""),
          choiceParam("dtype", ParamRole::Problem, {"f32", "f16", "bf16"}, "f32", "", ""),
          integerParam("block_size", ParamRole::Launch, 32, 1024, "256", "", "", 32),
          integerParam("waves", ParamRole::Launch, 1, 64, "32", "", "")};
}

std::vector<std::string> values(const std::string& text) {
  return parseSweepAxis(text, specs()).values;
}

TEST(Sweep, ListsRangesAndGeometricRanges) {
  EXPECT_EQ(values("block_size=64,128,256"), (std::vector<std::string>{"64", "128", "256"}));
  EXPECT_EQ(values("waves=1:4"), (std::vector<std::string>{"1", "2", "3", "4"}));
  EXPECT_EQ(values("block_size=64:256:64"), (std::vector<std::string>{"64", "128", "192", "256"}));
  EXPECT_EQ(values("block_size=32:1024:*2"),
            (std::vector<std::string>{"32", "64", "128", "256", "512", "1024"}));
  EXPECT_EQ(values("n=2^20:2^24:*4"), (std::vector<std::string>{"1048576", "4194304", "16777216"}));
  EXPECT_EQ(values("waves=3:10:4"), (std::vector<std::string>{"3", "7"}));  // end not reached
  EXPECT_EQ(values("dtype=f16,bf16"), (std::vector<std::string>{"f16", "bf16"}));
}

TEST(Sweep, EveryValueIsValidated) {
  EXPECT_THROW(values("block_size=64:256:16"), Error);  // 80 is no multiple of 32
  EXPECT_THROW(values("block_size=64,100"), Error);
  EXPECT_THROW(values("dtype=f16:bf16"), Error);  // ranges need integers
  EXPECT_THROW(values("waves=8:1"), Error);
  EXPECT_THROW(values("waves=1:8:*1"), Error);
  EXPECT_THROW(values("waves=1:8:0"), Error);
  EXPECT_THROW(values("nothing=1,2"), Error);
  EXPECT_THROW(values("waves"), Error);
  EXPECT_THROW(values("waves=1:2:3:4"), Error);
  try {
    values("block_size=64,100");
  } catch (const Error& e) {
    EXPECT_EQ(e.param(), "block_size");
  }
}

TEST(Sweep, HugeRangesAreRefused) {
  EXPECT_THROW(values("n=1:2^30"), Error);
}

TEST(Sweep, ExpandsOneAxis) {
  auto points = expandSweep(specs(), {{"n", "4096"}}, {parseSweepAxis("waves=1,2", specs())});
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].get("waves"), "1");
  EXPECT_EQ(points[1].get("waves"), "2");
  EXPECT_EQ(points[1].get("n"), "4096");
  EXPECT_EQ(points[1].get("block_size"), "256");  // default filled
}

TEST(Sweep, ExpandsTwoAxesFirstOutermost) {
  auto points = expandSweep(specs(), {},
                            {parseSweepAxis("block_size=64,128", specs()),
                             parseSweepAxis("dtype=f32,f16,bf16", specs())});
  ASSERT_EQ(points.size(), 6u);
  EXPECT_EQ(points[0].get("block_size"), "64");
  EXPECT_EQ(points[0].get("dtype"), "f32");
  EXPECT_EQ(points[2].get("dtype"), "bf16");
  EXPECT_EQ(points[3].get("block_size"), "128");
}

TEST(Sweep, RefusesAmbiguousSweeps) {
  const auto axis = parseSweepAxis("waves=1,2", specs());
  EXPECT_THROW(expandSweep(specs(), {}, {}), Error);
  EXPECT_THROW(expandSweep(specs(), {}, {axis, axis}), Error);
  EXPECT_THROW(expandSweep(specs(), {{"waves", "4"}}, {axis}), Error);
  EXPECT_THROW(
      expandSweep(specs(), {},
                  {axis, parseSweepAxis("n=1,2", specs()), parseSweepAxis("dtype=f32", specs())}),
      Error);
}

}  // namespace
}  // namespace kwb

namespace kwb {
namespace {

TEST(Sweep, ListParametersTakeValuesSeparatedBySemicolons) {
  const std::vector<ParamSpec> shapes{
      listParam("shape", ParamRole::Problem, 1, 1 << 20, 8, "64,64", "", "")};
  EXPECT_EQ(parseSweepAxis("shape=64,512,512;[8192, 8192]", shapes).values,
            (std::vector<std::string>{"64,512,512", "8192,8192"}));
  EXPECT_THROW(parseSweepAxis("shape=1:4", shapes), Error);  // no ranges of lists
}

}  // namespace
}  // namespace kwb
