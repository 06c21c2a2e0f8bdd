#include "core/specexpression.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kwb {
namespace {

TEST(SpecExpression, ArithmeticOverNamedValues) {
  const SpecExpression grid("ceil_div(n, TILE) * min(rows, 8) + n % 7", {"n", "TILE", "rows"});
  EXPECT_EQ(grid.uses(), (std::vector<std::string>{"n", "TILE", "rows"}));
  EXPECT_DOUBLE_EQ(grid.evaluate({{"n", 100}, {"TILE", 32}, {"rows", 16}}), 4 * 8 + 2);
  const SpecExpression restriction("TILE * TILE * 4 <= 49152 && !(TILE > 128)", {"TILE"});
  EXPECT_EQ(restriction.evaluate({{"TILE", 64}}), 1);
  EXPECT_EQ(restriction.evaluate({{"TILE", 128}}), 0);
  EXPECT_DOUBLE_EQ(SpecExpression("2^30", {}).evaluate({}), 1073741824.0);
  EXPECT_TRUE(SpecExpression("sm_count", {"n", "sm_count"}).uses() ==
              std::vector<std::string>{"sm_count"});
}

TEST(SpecExpression, WhatDoesNotParseOrHasNoValueIsSaid) {
  for (const char* bad : {"", "n +", "(n", "n ** 2", "tile * 2", "foo(3)"}) {
    try {
      SpecExpression(bad, {"n"});
      ADD_FAILURE() << "accepted: " << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage) << bad;
    }
  }
  const SpecExpression ratio("n / m", {"n", "m"});
  EXPECT_THROW(ratio.evaluate({{"n", 1}}), Error);            // m has no value
  EXPECT_THROW(ratio.evaluate({{"n", 1}, {"m", 0}}), Error);  // not finite
}

}  // namespace
}  // namespace kwb
