#include "app/cli/slurmjob.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/shard.h"

namespace kwb {
namespace {

TEST(SlurmJob, TheScriptAsksForAnArrayAndRunsTheTaskCommand) {
  SlurmOptions o;
  o.partition = "gpu";
  o.gres = "gpu:1";
  o.time = "30:00";
  const std::string s = slurmScript("kwb-sweep", 4, "/h/job", o, "kwb --shard \"$X\"/4");
  for (const char* line :
       {"#!/bin/sh\n", "#SBATCH --array=0-3\n", "#SBATCH --partition=gpu\n",
        "#SBATCH --gres=gpu:1\n", "#SBATCH --time=30:00\n", "#SBATCH --output=/h/job/task-%a.out\n",
        "\nexec kwb --shard \"$X\"/4\n"})
    EXPECT_NE(s.find(line), std::string::npos) << line;
  EXPECT_EQ(slurmScript("k", 1, "/j", {}, "kwb").find("--partition"), std::string::npos);
}

TEST(SlurmJob, WordsAreQuotedForTheShellWhereTheyNeedIt) {
  EXPECT_EQ(shellWord("n=2^20,2^21"), "n=2^20,2^21");
  EXPECT_EQ(shellWord("/home/a b/k.cu"), "'/home/a b/k.cu'");
  EXPECT_EQ(shellWord("it's"), "'it'\\''s'");
  EXPECT_EQ(shellWord(""), "''");
  EXPECT_EQ(shellWord("$HOME;rm"), "'$HOME;rm'");
}

TEST(SlurmJob, SlurmsAnswersAreRead) {
  EXPECT_EQ(parseJobId("1234\n"), "1234");
  EXPECT_EQ(parseJobId("1234;cluster\n"), "1234");
  EXPECT_EQ(parseJobId("sbatch: error\n"), "");

  const auto queued = parseSqueue("4-7%2 PENDING JobArrayTaskLimit\n2 RUNNING None\n", 8);
  ASSERT_EQ(queued.size(), 5u);
  EXPECT_EQ(queued[0].task, 2u);
  EXPECT_EQ(queued[0].state, "RUNNING");
  EXPECT_EQ(queued[1].task, 4u);
  EXPECT_EQ(queued[4].task, 7u);
  EXPECT_EQ(queued[4].reason, "JobArrayTaskLimit");

  const auto shown = parseScontrol(
      "JobId=2 ArrayJobId=1 ArrayTaskId=0 JobName=j JobState=COMPLETED Reason=None "
      "ExitCode=0:0\n"
      "JobId=3 ArrayJobId=1 ArrayTaskId=1 JobName=j JobState=FAILED Reason=NonZeroExitCode "
      "ExitCode=3:0\n"
      "JobId=1 ArrayJobId=1 ArrayTaskId=2-3 JobName=j JobState=PENDING Reason=Resources "
      "ExitCode=0:0\n",
      4);
  ASSERT_EQ(shown.size(), 4u);
  EXPECT_EQ(shown[0].reason, "");
  EXPECT_EQ(shown[1].state, "FAILED");
  EXPECT_EQ(shown[1].exitCode, "3:0");
  EXPECT_EQ(shown[3].state, "PENDING");

  const auto accounted = parseSacct(
      "77_0|COMPLETED|0:0|None\n77_1|CANCELLED by 0|0:15|None\n77_[2-3]|PENDING|0:0|Priority\n", 4);
  ASSERT_EQ(accounted.size(), 4u);
  EXPECT_EQ(accounted[1].state, "CANCELLED");
  EXPECT_EQ(accounted[2].reason, "Priority");
  EXPECT_TRUE(endedState("TIMEOUT"));
  EXPECT_FALSE(endedState("COMPLETING"));
  EXPECT_FALSE(endedState(""));
}

TEST(Shard, SharesCoverEveryPointOnce) {
  const Shard s = parseShard("2/3");
  EXPECT_EQ(s.index, 2u);
  EXPECT_EQ(s.count, 3u);
  EXPECT_TRUE(s.contains(5));
  EXPECT_FALSE(s.contains(4));
  EXPECT_EQ(toString(s), "2/3");
  for (const char* bad : {"3/3", "-1/2", "1", "a/b", "0/0", ""})
    EXPECT_THROW(parseShard(bad), Error) << bad;
}

}  // namespace
}  // namespace kwb
