#include <gtest/gtest.h>

#include "measure/kernelprofiler.h"

namespace kwb {
namespace {

TEST(ProfileNotice, OneSentenceNamesWhatWasNotRead) {
  EXPECT_EQ(profileNotice("", ""), "");
  EXPECT_EQ(profileNotice("", "no permission"),
            "Hardware counters were not read: no permission; this run has timing only.");
  EXPECT_EQ(profileNotice("a profiler is attached", ""),
            "Kernel times were not traced: a profiler is attached; the event timing stands alone.");
  // The same cause for both passes is said once.
  EXPECT_EQ(profileNotice("a profiler is attached", "a profiler is attached"),
            "Kernel times and hardware counters were not read: a profiler is attached; this run "
            "has event timing only.");
}

}  // namespace
}  // namespace kwb
