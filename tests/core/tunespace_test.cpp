#include "core/tunespace.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kwb {
namespace {

std::vector<ParamSpec> specs() {
  return {integerParam("n", ParamRole::Problem, 1, std::int64_t{1} << 34, "1024", "", ""),
          choiceParam("op", ParamRole::Problem, {"relu", "gelu"}, "relu", "", ""),
          integerParam("block_size", ParamRole::Launch, 32, 1024, "256", "", "", 32),
          integerParam("waves", ParamRole::Launch, 1, 64, "32", "", ""),
          choiceParam("pack_size", ParamRole::Launch, {"1", "2", "4", "8"}, "1", "", "")};
}

// The variant's own rule: a pack of 8 needs blocks of 128 threads at most.
ParamSet resolve(const RawParams& raw) {
  ParamSet p = resolveParams(specs(), raw);
  if (p.getInt("pack_size") == 8 && p.getInt("block_size") > 128)
    throw paramError("pack_size", "8 needs block_size <= 128");
  return p;
}

TuneSpace space(std::vector<std::string> restrictions = {}, RawParams base = {{"n", "2^20"}}) {
  return TuneSpace(
      std::move(base),
      {parseSweepAxis("block_size=32:1024:*2", specs()), parseSweepAxis("waves=1,2,4,8", specs()),
       parseSweepAxis("pack_size=1,2,4,8", specs())},
      std::move(restrictions), resolve);
}

TEST(TuneSpace, NumbersEveryPointAndCountsTheValidOnes) {
  const TuneSpace s = space();
  EXPECT_EQ(s.size(), 6u * 4 * 4);
  EXPECT_EQ(s.validCount(), s.size() - 3u * 4);  // pack 8 with 256, 512, 1024 threads
  for (std::size_t i = 0; i < s.size(); ++i) EXPECT_EQ(s.index(s.point(i)), i);
  EXPECT_EQ(s.point(0), (TunePoint{0, 0, 0}));
  EXPECT_EQ(s.point(1), (TunePoint{0, 0, 1}));  // the last axis innermost
  EXPECT_EQ(s.describe(s.index({2, 1, 3})), "block_size=128 waves=2 pack_size=8");
}

TEST(TuneSpace, RestrictionsAndTheVariantsRulesMakePointsInvalid) {
  const TuneSpace s = space({"block_size * waves <= 1024"});
  std::string why;
  EXPECT_FALSE(s.params(s.index({5, 1, 0}), &why));  // 1024 x 2
  EXPECT_EQ(why, "breaks block_size * waves <= 1024");
  EXPECT_FALSE(s.valid(s.index({5, 1, 0})));
  EXPECT_FALSE(s.params(s.index({3, 0, 3}), &why));  // 256 threads, pack 8
  EXPECT_NE(why.find("pack_size"), std::string::npos);
  const auto ok = s.params(s.index({2, 3, 3}));
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->get("n"), "1048576");
  EXPECT_EQ(ok->get("op"), "relu");  // defaults filled in
  std::size_t valid = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto p = s.params(i);
    EXPECT_EQ(p.has_value(), s.valid(i));
    if (p) {
      EXPECT_LE(p->getInt("block_size") * p->getInt("waves"), 1024);
      ++valid;
    }
  }
  EXPECT_EQ(valid, s.validCount());
}

TEST(TuneSpace, FindsTheValidPointOfAStoredRunsParameters) {
  const TuneSpace s = space();
  const std::size_t i = s.index({1, 2, 2});
  EXPECT_EQ(s.find(*s.params(i)), i);
  ParamSet other = *s.params(i);
  other.set("n", "2048");  // another problem
  EXPECT_FALSE(s.find(other));
  other = *s.params(i);
  other.set("waves", "3");  // a value the space does not tune over
  EXPECT_FALSE(s.find(other));
}

TEST(TuneSpace, RefusesWhatCannotBeASpace) {
  EXPECT_THROW(TuneSpace({}, {}, {}, resolve), Error);
  EXPECT_THROW(TuneSpace({{"waves", "2"}}, {parseSweepAxis("waves=1,2", specs())}, {}, resolve),
               Error);
  EXPECT_THROW(
      TuneSpace({}, {parseSweepAxis("waves=1,2", specs()), parseSweepAxis("waves=4", specs())}, {},
                resolve),
      Error);
  EXPECT_THROW(space({"block_size <="}), Error);
  EXPECT_THROW(space({"op > 1"}), Error);  // op has no numeric values
  EXPECT_THROW(space({"unroll < 4"}), Error);
  EXPECT_THROW(
      TuneSpace({},
                {parseSweepAxis("n=1:1000", specs()), parseSweepAxis("waves=1:64", specs()),
                 parseSweepAxis("block_size=32:1024:32", specs())},
                {}, resolve),
      Error);  // 2,048,000 points
}

}  // namespace
}  // namespace kwb
