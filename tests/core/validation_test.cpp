#include "core/validation.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kwb {
namespace {

std::vector<ParamSpec> specs() {
  auto waves = integerParam("waves", ParamRole::Launch, 1, 64, "auto", "waves", "grid in waves");
  waves.allowsAuto = true;
  return {
      integerParam("n", ParamRole::Problem, 1, std::int64_t{1} << 34, "1024", "elements", "size"),
      choiceParam("dtype", ParamRole::Problem, {"f32", "f16"}, "f32", "", "element type"),
      integerParam("block_size", ParamRole::Launch, 32, 1024, "256", "threads", "block", 32),
      waves};
}

// Runs f, which must throw Error(Param) about `param` with a message containing `text`.
template <typename F>
void expectParamError(F f, const std::string& param, const std::string& text) {
  try {
    f();
    FAIL() << "no error for " << param;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Param);
    EXPECT_EQ(e.param(), param);
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'" + param + "'"), std::string::npos) << e.what();
  }
}

TEST(Validation, FillsDefaultsAndCanonicalizes) {
  ParamSet p = resolveParams(specs(), {{"n", "2^20"}, {"block_size", "128"}});
  EXPECT_EQ(p.get("n"), "1048576");
  EXPECT_EQ(p.get("dtype"), "f32");
  EXPECT_EQ(p.getInt("block_size"), 128);
  EXPECT_TRUE(p.isAuto("waves"));
}

TEST(Validation, NamesTheParameterAndWhatIsAllowed) {
  expectParamError(
      [] {
        resolveParams(specs(), {{"block_size", "100"}});
      },
      "block_size", "not a multiple of 32; allowed: 32..1024, multiples of 32");
  expectParamError(
      [] {
        resolveParams(specs(), {{"block_size", "2048"}});
      },
      "block_size", "out of range");
  expectParamError([] { resolveParams(specs(), {{"n", "0"}}); }, "n", "allowed: 1..2^34");
  expectParamError([] { resolveParams(specs(), {{"n", "lots"}}); }, "n", "not an integer");
  expectParamError(
      [] {
        resolveParams(specs(), {{"dtype", "f8"}});
      },
      "dtype", "allowed: one of f32, f16");
  expectParamError([] { resolveParams(specs(), {{"waves", "0"}}); }, "waves", "1..64 or auto");
  expectParamError(
      [] {
        resolveParams(specs(), {{"blocksize", "64"}});
      },
      "blocksize", "this variant takes: n, dtype, block_size, waves");
}

TEST(Validation, AutoOnlyWhereAllowed) {
  EXPECT_EQ(resolveParams(specs(), {{"waves", "auto"}}).get("waves"), "auto");
  expectParamError(
      [] {
        resolveParams(specs(), {{"block_size", "auto"}});
      },
      "block_size", "not an integer");
}

TEST(Validation, AllowedTextDescribesTheSpec) {
  EXPECT_EQ(specs()[2].allowedText(), "32..1024, multiples of 32");
  EXPECT_EQ(specs()[1].allowedText(), "one of f32, f16");
  EXPECT_EQ(specs()[3].allowedText(), "1..64 or auto");
}

}  // namespace
}  // namespace kwb

namespace kwb {
namespace {

ParamSpec shapeSpec() {
  return listParam("shape", ParamRole::Problem, 1, std::int64_t{1} << 31, 8, "64,512,512",
                   "elements", "sizes of the dimensions");
}

TEST(ValidationList, AcceptsCommonSpellingsAndCanonicalizes) {
  const ParamSpec spec = shapeSpec();
  EXPECT_EQ(canonicalValue(spec, "64,512,512"), "64,512,512");
  EXPECT_EQ(canonicalValue(spec, "[64, 512, 2^9]"), "64,512,512");
  EXPECT_EQ(canonicalValue(spec, "(8192, 8192)"), "8192,8192");
  EXPECT_EQ(canonicalValue(spec, "16x3x512x512"), "16,3,512,512");
  EXPECT_EQ(canonicalValue(spec, "7"), "7");
  EXPECT_EQ(listItems("16,3,512,512"), (std::vector<std::int64_t>{16, 3, 512, 512}));
  EXPECT_EQ(spec.allowedText(), "1 to 8 integers 1..2^31 separated by commas");
}

TEST(ValidationList, NamesTheBadItem) {
  const ParamSpec spec = shapeSpec();
  expectParamError([&] { canonicalValue(spec, "64,,512"); }, "shape", "'', not an integer");
  expectParamError([&] { canonicalValue(spec, "64,0"); }, "shape", "has 0, out of range");
  expectParamError([&] { canonicalValue(spec, "1,2,3,4,5,6,7,8,9"); }, "shape", "has 9 items");
  expectParamError([&] { canonicalValue(spec, "64,big"); }, "shape", "'big', not an integer");
}

}  // namespace
}  // namespace kwb
