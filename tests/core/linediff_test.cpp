#include "core/linediff.h"

#include <gtest/gtest.h>

namespace kwb {
namespace {

TEST(LineDiff, EqualTextsHaveNoDiff) {
  EXPECT_EQ(unifiedDiff("a\nb\n", "a\nb\n", "x", "y"), "");
}

TEST(LineDiff, AChangedLineIsAHunkWithItsContext) {
  const std::string before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
  const std::string after = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
  EXPECT_EQ(unifiedDiff(before, after, "run 1", "run 2"),
            "--- run 1\n+++ run 2\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
}

TEST(LineDiff, DistantChangesAreSeparateHunksAndAddedLinesCount) {
  std::string before, after;
  for (int i = 1; i <= 20; ++i) {
    before += std::to_string(i) + "\n";
    after += std::to_string(i) + "\n";
    if (i == 2) after += "new\n";
  }
  after.replace(after.find("\n18\n"), 4, "\neighteen\n");
  EXPECT_EQ(unifiedDiff(before, after, "a", "b"),
            "--- a\n+++ b\n@@ -1,5 +1,6 @@\n 1\n 2\n+new\n 3\n 4\n 5\n"
            "@@ -15,6 +16,6 @@\n 15\n 16\n 17\n-18\n+eighteen\n 19\n 20\n");
}

TEST(LineDiff, FromNothing) {
  EXPECT_EQ(unifiedDiff("", "a\n", "a", "b"), "--- a\n+++ b\n@@ -0,0 +1,1 @@\n+a\n");
}

}  // namespace
}  // namespace kwb
