#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/cli/cliapp.h"
#include "app/cli/exitcodes.h"
#include "db/runstore.h"
#include "measure/devicequery.h"
#include "tests/app/relayharness.h"
#include "tests/db/testdb.h"

namespace kwb {
namespace {

// kwb sweep/tune --slurm against a real Slurm on loopback (munged, slurmctld and slurmd started
// by tests/slurm/slurm_loopback.sh with a generated configuration, stopped after each test):
// the array's tasks run this build's kwb, or a stand-in (tests/fixtures/workers/slurm_task.sh)
// that copies a history of prepared runs, fails, or sleeps until cancelled.
class SlurmTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "kwb-slurm-" + std::to_string(getpid());
    std::filesystem::create_directories(dir_ + "/tasks");
    const int rc = std::system(("bash " KWB_SOURCE_DIR "/tests/slurm/slurm_loopback.sh start " +
                                dir_ + " > " + dir_ + "/start.log 2>&1")
                                   .c_str());
    if (WEXITSTATUS(rc) == 77) GTEST_SKIP() << std::ifstream(dir_ + "/start.log").rdbuf();
    ASSERT_EQ(WEXITSTATUS(rc), 0) << std::ifstream(dir_ + "/start.log").rdbuf();
    setenv("SLURM_CONF", (dir_ + "/slurm.conf").c_str(), 1);
    setenv("KWB_TEST_TASKS", (dir_ + "/tasks").c_str(), 1);
    // The tasks run kwb itself, never this test program.
    setenv("KWB_SLURM_KWB", KWB_EXECUTABLE, 1);
  }
  void TearDown() override {
    (void)!std::system(
        ("bash " KWB_SOURCE_DIR "/tests/slurm/slurm_loopback.sh stop " + dir_).c_str());
    unsetenv("SLURM_CONF");
    setenv("KWB_SLURM_KWB", KWB_EXECUTABLE, 1);
    unsetenv("KWB_TEST_TASKS");
    // The daemons remove their pid files as they end, maybe while this removes the folder.
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  struct Outcome {
    int code;
    std::string out, err;
  };
  Outcome run(std::vector<std::string> args) {
    std::istringstream in;
    std::ostringstream out, err;
    const int code = runCli(args, in, out, err);
    return {code, out.str(), err.str()};
  }
  std::string history() const { return dir_ + "/h.sqlite"; }

  // The stand-in's histories: task t holds `runs` runs of its own.
  void prepareTasks(int tasks, int runs) {
    setenv("KWB_SLURM_KWB", "bash " KWB_FIXTURES_DIR "/workers/slurm_task.sh", 1);
    for (int t = 0; t < tasks; ++t) {
      RunStore store(dir_ + "/tasks/task-" + std::to_string(t) + ".sqlite");
      store.upsertDevice(kwb::testing::fakeDevice("GPU-aaaa", "NVIDIA H100 80GB HBM3"));
      const auto sweep = store.createSweep("copy", "vectorized", {}, nlohmann::json::array());
      for (int r = 0; r < runs; ++r)
        store.insertRun(kwb::testing::fakeRun("vectorized", "f32", 1000 * t + r), sweep);
    }
  }

  std::string dir_;
};

TEST_F(SlurmTest, TheTasksShareTheSweepAndTheirRunsBecomeOneSweepHere) {
  prepareTasks(3, 2);
  const Outcome o = run({"--db", history(), "sweep", "copy", "vectorized", "-s",
                         "n=2^20,2^21,2^22,2^23,2^24", "--slurm", "--tasks", "3"});
  EXPECT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.err.find("submitted job array "), std::string::npos) << o.err;
  EXPECT_NE(o.out.find("3 of 3 tasks completed; 6 runs merged into sweep 1"), std::string::npos)
      << o.out;
  RunStore store(history());
  const auto runs = store.query({});
  ASSERT_EQ(runs.size(), 6u);
  for (const auto& r : runs) EXPECT_EQ(r.sweepId, std::optional<std::int64_t>(1));
  // Each task was given its own share, and the job script names them.
  const auto folder = std::filesystem::directory_iterator(history() + ".slurm")->path().string();
  for (int t = 0; t < 3; ++t) {
    std::ifstream log(folder + "/task-" + std::to_string(t) + ".out");
    std::string args, share;
    std::getline(log, args);
    std::getline(log, share);
    EXPECT_EQ(share, "task " + std::to_string(t) + " of 3");
  }
}

TEST_F(SlurmTest, AFailedTaskIsListedWithItsReasonAndTheOthersAreMerged) {
  prepareTasks(2, 2);
  std::ofstream(dir_ + "/tasks/fail-1");
  const Outcome o = run({"--db", history(), "sweep", "copy", "vectorized", "-s", "n=2^20,2^21,2^22",
                         "--slurm", "--tasks", "2"});
  EXPECT_EQ(o.code, kExitFailed);
  EXPECT_NE(o.err.find("kwb: task 1 failed (exit 3:0), NonZeroExitCode: kwb: no CUDA device: the "
                       "stand-in has none"),
            std::string::npos)
      << o.err;
  EXPECT_NE(o.out.find("1 of 2 tasks completed; 2 runs merged"), std::string::npos) << o.out;
  EXPECT_EQ(RunStore(history()).count({}), 2u);
}

// A tuning's tasks search their shares of the space; the best of their bests is said.
TEST_F(SlurmTest, ATuningsTasksEachSayTheirBest) {
  prepareTasks(2, 1);
  const Outcome o = run({"--db", history(), "tune", "copy", "vectorized", "-s", "waves=1,2,4,8",
                         "--strategy", "exhaustive", "--slurm", "--tasks", "2"});
  EXPECT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("task 1's best: {\"waves\":\"2\"}, 20.00 us"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("best of all: {\"waves\":\"1\"}, 10.00 us (compare them again: kwb tune "
                       "--replay 1)"),
            std::string::npos)
      << o.out;
  EXPECT_EQ(RunStore(history()).count({}), 2u);
}

// A kernel file is copied beside the history first: the tasks run the text submitted.
TEST_F(SlurmTest, AKernelFileIsCopiedForTheTasks) {
  prepareTasks(1, 1);
  const std::string kernel = dir_ + "/saxpy.cu";
  std::filesystem::copy_file(KWB_SOURCE_DIR "/examples/kernels/saxpy.cu", kernel);
  const Outcome o =
      run({"--db", history(), "sweep", kernel, "-s", "n=2^20,2^21", "--slurm", "--tasks", "1"});
  EXPECT_EQ(o.code, kExitOk) << o.err;
  std::filesystem::remove(kernel);
  std::string copy;
  for (const auto& f : std::filesystem::directory_iterator(history() + ".slurm/kernels"))
    copy = f.path().string();
  EXPECT_NE(copy.find("-saxpy.cu"), std::string::npos) << copy;
  std::string args;
  for (const auto& d : std::filesystem::directory_iterator(history() + ".slurm"))
    if (d.path().filename().string().rfind("kwb-sweep-", 0) == 0)
      std::getline(std::ifstream(d.path().string() + "/task-0.out"), args);
  EXPECT_NE(args.find(copy), std::string::npos) << args;
  EXPECT_EQ(args.find(kernel + " "), std::string::npos) << args;
}

constexpr const char* kSweepRequest =
    R"({"v":2,"type":"sweep","id":"s","family":"copy","variant":"vectorized","params":{},"axes":["n=2^20,2^21,2^22"],"options":{"budget_s":0.05,"tags":["lesson:permute-5-padding"]}})";

// The window's sweep with Settings saying Slurm: `kwb --slurm worker` submits it as an array,
// says its progress, and replies with the runs merged here, as a worker would.
TEST_F(SlurmTest, TheRelaySendsTheWindowsSweepToSlurm) {
  prepareTasks(2, 2);
  const auto o = kwb::testing::relayThrough(
      {KWB_EXECUTABLE, "--db", history(), "--slurm", "--tasks", "2", "worker"},
      {kSweepRequest,
       R"({"v":2,"type":"tune","id":"t","family":"copy","variant":"vectorized","params":{},"tune":{"axes":["waves=1,2"]},"options":{}})"});
  EXPECT_EQ(o.end, "exited with status 0");
  const auto& replies = o.replies.at("s");
  std::size_t results = 0;
  std::string said;
  for (const auto& reply : replies) {
    if (const auto* r = std::get_if<protocol::Result>(&reply.body)) {
      ++results;
      EXPECT_TRUE(r->runId);
    }
    if (const auto* p = std::get_if<protocol::Progress>(&reply.body)) said += p->text + "\n";
  }
  EXPECT_EQ(results, 4u);
  EXPECT_NE(said.find("submitted job array "), std::string::npos) << said;
  const auto* done = std::get_if<protocol::Done>(&replies.back().body);
  ASSERT_NE(done, nullptr);
  EXPECT_EQ(done->completed, 4u);
  EXPECT_EQ(RunStore(history()).count({}), 4u);
  HistoryFilter lesson;
  lesson.tag = "lesson:permute-5-padding";
  EXPECT_EQ(RunStore(history()).count(lesson), 4u);  // the request's tags, as a worker keeps them
  const auto* refused = std::get_if<protocol::Failure>(&o.replies.at("t").back().body);
  ASSERT_NE(refused, nullptr);
  EXPECT_NE(refused->message.find("kwb tune ... --slurm"), std::string::npos);
}

// The window's Stop: a cancel request cancels the array.
TEST_F(SlurmTest, StopInTheWindowCancelsTheArray) {
  prepareTasks(2, 1);
  std::ofstream(dir_ + "/tasks/sleep");
  bool sent = false;
  const auto o = kwb::testing::relayThrough(
      {KWB_EXECUTABLE, "--db", history(), "--slurm", "--tasks", "2", "worker"}, {kSweepRequest},
      [&](const protocol::Reply& reply, WorkerProcess& relay) {
        const auto* p = std::get_if<protocol::Progress>(&reply.body);
        if (p && p->text.find("2 running") != std::string::npos && !sent) {
          relay.send({"c", protocol::CancelRequest{"s"}});
          sent = true;
        }
      });
  ASSERT_TRUE(sent);
  std::string said;
  for (const auto& reply : o.replies.at("s"))
    if (const auto* p = std::get_if<protocol::Progress>(&reply.body)) said += p->text + "\n";
  EXPECT_NE(said.find("cancelling job "), std::string::npos) << said;
  EXPECT_NE(said.find("task 0 cancelled"), std::string::npos) << said;
  const auto* done = std::get_if<protocol::Done>(&o.replies.at("s").back().body);
  ASSERT_NE(done, nullptr);
  EXPECT_TRUE(done->cancelled);
}

// Each task runs this build's kwb: without a GPU (CI) every task fails in kwb's own words, and
// nothing is merged; with one, the runs of every share come back.
TEST_F(SlurmTest, TheTasksRunThisKwb) {
  const Outcome o = run({"--db", history(), "--json", "sweep", "copy", "vectorized", "-s",
                         "n=2^20,2^21", "--slurm", "--tasks", "2", "--budget", "0.05"});
  const auto summary = nlohmann::json::parse(o.out);
  ASSERT_EQ(summary["tasks"].size(), 2u);
  if (deviceCount() == 0) {
    EXPECT_EQ(o.code, kExitFailed);
    for (const auto& task : summary["tasks"]) {
      EXPECT_EQ(task["state"], "FAILED");
      EXPECT_EQ(task["said"].get<std::string>().rfind("kwb: no CUDA device", 0), 0u) << task;
    }
    EXPECT_EQ(RunStore(history()).count({}), 0u);
    return;
  }
  EXPECT_EQ(o.code, kExitOk) << o.err;
  EXPECT_EQ(summary["merged_runs"], 2);
}

// Ctrl-C while the tasks run: the array is cancelled with scancel and kwb says so.
TEST_F(SlurmTest, AnInterruptCancelsTheArray) {
  prepareTasks(2, 1);
  std::ofstream(dir_ + "/tasks/sleep");
  const std::string out = dir_ + "/kwb.out", err = dir_ + "/kwb.err";
  const pid_t pid = fork();
  if (pid == 0) {
    const std::string command = std::string(KWB_EXECUTABLE) + " --db " + history() +
                                " sweep copy vectorized -s n=2^20,2^21 --slurm --tasks 2 > " + out +
                                " 2> " + err;
    execl("/bin/sh", "sh", "-c", ("exec " + command).c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  // Once both tasks run, interrupt.
  const auto start = std::chrono::steady_clock::now();
  std::string said;
  while (std::chrono::steady_clock::now() - start < std::chrono::seconds(30)) {
    std::stringstream text;
    text << std::ifstream(err).rdbuf();
    said = text.str();
    if (said.find("2 running") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  ASSERT_NE(said.find("2 running"), std::string::npos) << said;
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  std::stringstream text;
  text << std::ifstream(err).rdbuf();
  EXPECT_EQ(WEXITSTATUS(status), kExitCancelled) << text.str();
  EXPECT_NE(text.str().find("kwb: cancelling job "), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("kwb: task 0 cancelled"), std::string::npos) << text.str();
}

}  // namespace
}  // namespace kwb
