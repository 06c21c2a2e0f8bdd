// `kwb tune` on the GPU: a live search stored as a sweep and replayed, and a tuning killed
// mid-way that resumes from the history.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/cli/cliapp.h"
#include "app/cli/exitcodes.h"
#include "app/workerharness.h"
#include "core/protocol.h"
#include "db/runstore.h"
#include "db/testdb.h"

namespace kwb {
namespace {

// 5 x 3 points of the vectorized copy, short runs.
const std::vector<std::string> kSpace{
    "copy", "vectorized",          "n=2^22",         "-s",  "block_size=64:1024:*2",
    "-s",   "vector_bytes=4,8,16", "--point-budget", "0.05"};

class TuneGpu : public ::testing::Test {
 protected:
  nlohmann::json tune(std::vector<std::string> extra, bool space = true) {
    std::vector<std::string> args{"--db", db(), "--json", "tune"};
    if (space) args.insert(args.end(), kSpace.begin(), kSpace.end());
    args.insert(args.end(), extra.begin(), extra.end());
    std::istringstream in;
    std::ostringstream out, err;
    EXPECT_EQ(runCli(args, in, out, err), kExitOk) << err.str();
    return nlohmann::json::parse(out.str());
  }
  std::size_t runsTagged(const std::string& tag) {
    RunStore store(db());
    HistoryFilter filter;
    filter.tag = tag;
    return store.count(filter);
  }
  std::string db() const { return dir.file("h.sqlite"); }
  testing::TempDir dir;
};

TEST_F(TuneGpu, ALiveSearchIsStoredAsASweepThatReplaysToTheSameBest) {
  const auto live = tune({"--strategy", "exhaustive", "--confirm", "3"});
  ASSERT_EQ(live["evaluations"].size(), 15u);
  EXPECT_EQ(live["cache_hits"], 0);
  ASSERT_EQ(live["finalists"].size(), 3u);
  EXPECT_TRUE(live["finalists"][0]["tied_with_best"]);
  EXPECT_EQ(runsTagged("tune"), 15u);
  EXPECT_EQ(runsTagged("tune:confirm"), 3u);

  // The best of the search, by its own measurements, is the replay's best too.
  nlohmann::json best;
  for (const auto& e : live["evaluations"])
    if (best.is_null() || e["score"].get<double>() < best["score"].get<double>()) best = e;
  const auto replayed = tune({"--replay", std::to_string(live["sweep_id"].get<int>()), "--strategy",
                              "exhaustive", "--confirm", "0"},
                             false);
  nlohmann::json replayBest;
  for (const auto& e : replayed["evaluations"])
    if (replayBest.is_null() || e["score"].get<double>() < replayBest["score"].get<double>())
      replayBest = e;
  EXPECT_EQ(replayed["evaluations"].size(), 15u);
  EXPECT_EQ(replayBest["params"], best["params"]);
}

TEST_F(TuneGpu, AKilledTuningResumesFromTheHistory) {
  // kwb in a process of its own, killed once four points are done.
  int pipeFds[2];
  ASSERT_EQ(pipe(pipeFds), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    dup2(pipeFds[1], STDERR_FILENO);
    close(pipeFds[0]);
    std::vector<std::string> args{KWB_EXECUTABLE, "--db", db(), "tune"};
    args.insert(args.end(), kSpace.begin(), kSpace.end());
    for (const char* a : {"--strategy", "random", "--budget", "10", "--search-seed", "4"})
      args.emplace_back(a);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(pipeFds[1]);
  FILE* err = fdopen(pipeFds[0], "r");
  char line[4096];
  int done = 0;
  while (done < 4 && std::fgets(line, sizeof line, err))
    if (line[0] == '[') ++done;
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  std::fclose(err);
  ASSERT_EQ(done, 4) << "the tuning ended before four points";
  const std::size_t stored = runsTagged("tune");
  EXPECT_GE(stored, 4u);

  const auto resumed = tune({"--strategy", "random", "--budget", "10", "--search-seed", "4"});
  EXPECT_EQ(resumed["evaluations"].size(), 10u);
  EXPECT_EQ(resumed["cache_hits"].get<std::size_t>(), stored);
  EXPECT_EQ(runsTagged("tune"), 10u);  // no point measured twice
}

TEST_F(TuneGpu, TheWorkerTunesWithAResultPerRunAndTheReportAtTheEnd) {
  RunStore store(db());
  testing::WorkerHarness worker(&store);
  TuneSettings settings;
  settings.axes = {"block_size=128,256", "vector_bytes=8,16"};
  settings.strategy = "exhaustive";
  settings.confirm = 2;
  MeasureSettings brief;
  brief.budget = 0.05;
  worker.send(protocol::Request{
      "t", protocol::TuneRequest{{"copy", "vectorized", {{"n", "2^22"}}}, settings, brief}});
  std::size_t from = 0;
  const auto tuned = worker.output().waitFor(testing::WorkerHarness::is("tuned", "t"), &from, 120);
  ASSERT_FALSE(tuned.is_null());
  const auto done = worker.output().waitFor(testing::WorkerHarness::is("done", "t"), &from);
  ASSERT_FALSE(done.is_null());
  EXPECT_FALSE(done["cancelled"].get<bool>());
  EXPECT_EQ(done["completed"], 6);  // four points and the two leaders measured again
  const auto& report = tuned["report"];
  EXPECT_EQ(report["evaluations"].size(), 4u);
  EXPECT_EQ(report["finalists"].size(), 2u);
  std::size_t results = 0, progress = 0, evaluated = 0;
  for (const auto& line : worker.output().lines()) {
    const auto message = nlohmann::json::parse(line);
    if (message["id"] != "t") continue;
    results += message["type"] == "result";
    progress += message["type"] == "progress" && message["total"] == 4;
    if (message["type"] == "evaluated") {
      ++evaluated;
      EXPECT_EQ(message["number"], evaluated);
      EXPECT_EQ(message["evaluation"], report["evaluations"][evaluated - 1]);
    }
  }
  EXPECT_EQ(results, 6u);
  EXPECT_EQ(progress, 4u);   // one per evaluation, with the best so far
  EXPECT_EQ(evaluated, 4u);  // the same as the report lists
}

}  // namespace
}  // namespace kwb
