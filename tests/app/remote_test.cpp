#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/cli/cliapp.h"
#include "app/cli/exitcodes.h"
#include "core/protocol.h"
#include "measure/devicequery.h"
#include "tests/app/relayharness.h"

namespace kwb {
namespace {

// kwb --host through a real sshd on loopback, started by the test with keys of its own
// (tests/remote/sshd_loopback.sh): the remote worker is this build's kwb, or a recorded H100
// worker (tests/fixtures/worker/h100_run.jsonl) that can end on purpose.
class RemoteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "kwb-remote-" + std::to_string(getpid());
    std::filesystem::create_directories(dir_);
    const int rc = std::system(("bash " KWB_SOURCE_DIR "/tests/remote/sshd_loopback.sh start " +
                                dir_ + " > " + dir_ + "/start.log 2>&1")
                                   .c_str());
    if (WEXITSTATUS(rc) == 77) GTEST_SKIP() << "no sshd here";
    ASSERT_EQ(WEXITSTATUS(rc), 0) << std::ifstream(dir_ + "/start.log").rdbuf();
    setenv("KWB_SSH", ("ssh -F " + dir_ + "/ssh_config").c_str(), 1);
    setenv("KWB_REMOTE_KWB", KWB_EXECUTABLE, 1);
  }
  void TearDown() override {
    (void)!std::system(
        ("bash " KWB_SOURCE_DIR "/tests/remote/sshd_loopback.sh stop " + dir_).c_str());
    unsetenv("KWB_SSH");
    unsetenv("KWB_REMOTE_KWB");
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

  // The recorded H100 worker as the remote kwb (tests/fixtures/workers/recorded_worker.sh),
  // ending on its `endAt`-th job, with another hello where given.
  void recordedWorker(int endAt, const std::string& hello = {}) {
    const std::string command = "bash " KWB_FIXTURES_DIR "/workers/recorded_worker.sh " + dir_ +
                                " " + std::to_string(endAt) + " '" + hello + "' > " + dir_ +
                                "/worker_command";
    ASSERT_EQ(std::system(command.c_str()), 0);
    std::string line;
    std::getline(std::ifstream(dir_ + "/worker_command"), line);
    setenv("KWB_REMOTE_KWB", line.c_str(), 1);
  }

  // `kwb --host kwbtest --db DB [options] worker`, as the window starts it.
  static testing::Relayed relay(const std::vector<std::string>& requests, const std::string& db,
                                const std::vector<std::string>& options = {}) {
    std::vector<std::string> argv{KWB_EXECUTABLE, "--host", "kwbtest", "--db", db};
    argv.insert(argv.end(), options.begin(), options.end());
    argv.push_back("worker");
    return testing::relayThrough(argv, requests);
  }

  std::string dir_;
};

constexpr const char* kRunRequest =
    R"({"v":2,"type":"run","id":"r","family":"copy","variant":"vectorized","params":{"n":"2^20"},"options":{"budget_s":0.05}})";

TEST_F(RemoteTest, DevicesAndRunsAreAnsweredByTheRemoteWorker) {
  const std::string db = dir_ + "/h.sqlite";
  const Outcome devices = run({"--host", "kwbtest", "--db", db, "devices"});
  const Outcome one = run({"--host", "kwbtest", "--db", db, "run", "copy", "vectorized", "n=2^20"});
  const Outcome sass =
      run({"--host", "kwbtest", "--db", db, "sass", "copy", "vectorized", "--summary"});
  if (deviceCount() == 0) {
    // No GPU on the other side either (CI): its own sentence, said as the host's.
    for (const Outcome& o : {devices, one, sass}) {
      EXPECT_EQ(o.code, kExitNoDevice) << o.err;
      EXPECT_EQ(o.err.rfind("kwb: kwbtest: no CUDA device", 0), 0u) << o.err;
    }
    return;
  }
  EXPECT_EQ(devices.code, kExitOk) << devices.err;
  EXPECT_EQ(one.code, kExitOk) << one.err;
  EXPECT_NE(one.out.find("of kwbtest"), std::string::npos) << one.out;
  // cuobjdump may be missing over there: then its sentence, else the listing's counts.
  if (sass.code == kExitOk)
    EXPECT_NE(sass.out.find("instructions"), std::string::npos) << sass.out;
  else
    EXPECT_NE(sass.err.find("kwbtest: "), std::string::npos) << sass.err;
  const Outcome history = run({"--db", db, "--json", "history"});
  EXPECT_EQ(nlohmann::json::parse(history.out).size(), 1u) << history.out;
}

TEST_F(RemoteTest, AWorkerThatEndsMidSweepIsSaidAndWhatArrivedIsKept) {
  recordedWorker(3);
  const std::string db = dir_ + "/h.sqlite";
  const Outcome sweep = run({"--host", "kwbtest", "--db", db, "sweep", "copy", "vectorized", "-s",
                             "n=2^24,2^25,2^26,2^27"});
  EXPECT_NE(sweep.code, kExitOk);
  EXPECT_NE(sweep.err.find("the worker of device 0 exited with status 3 (ending on purpose); its "
                           "point is lost"),
            std::string::npos)
      << sweep.err;
  EXPECT_NE(sweep.err.find("every worker ended with 1 of the points left to run"),
            std::string::npos)
      << sweep.err;
  const Outcome history = run({"--db", db, "--json", "history"});
  const auto runs = nlohmann::json::parse(history.out);
  ASSERT_EQ(runs.size(), 2u) << history.out;
  EXPECT_EQ(runs[0]["device"], "NVIDIA H100 80GB HBM3");
}

TEST_F(RemoteTest, AWorkerOfAnotherProtocolVersionIsRefusedInOneSentence) {
  recordedWorker(0, R"({"app_version":"9.9","protocol":99,"type":"hello","v":99})");
  const Outcome o = run({"--host", "kwbtest", "--no-store", "devices"});
  EXPECT_EQ(o.code, kExitBadInput);
  EXPECT_NE(o.err.find("kwbtest: the worker speaks protocol version 99, this kwb version 2"),
            std::string::npos)
      << o.err;
}

// The search runs here and its points there; the runs are this history's, tagged as a tuning's.
TEST_F(RemoteTest, ATuningMeasuresItsPointsOnTheHost) {
  recordedWorker(0);
  const std::string db = dir_ + "/h.sqlite";
  const Outcome tune = run({"--host", "kwbtest", "--db", db, "tune", "copy", "vectorized", "-s",
                            "waves=1,2,4", "--strategy", "exhaustive", "--confirm", "2"});
  ASSERT_EQ(tune.code, kExitOk) << tune.err;
  EXPECT_NE(tune.err.find("tuning on GPU 0 of kwbtest"), std::string::npos) << tune.err;
  EXPECT_NE(tune.out.find("after 3 evaluations"), std::string::npos) << tune.out;
  const auto runs = nlohmann::json::parse(run({"--db", db, "--json", "history"}).out);
  ASSERT_EQ(runs.size(), 5u);  // three points and two leaders measured again
  std::multiset<std::string> tags;
  for (const auto& r : runs) {
    EXPECT_EQ(r["device"], "NVIDIA H100 80GB HBM3");
    for (const auto& tag : r["tags"]) tags.insert(tag);
  }
  EXPECT_EQ(tags.count("tune"), 3u);
  EXPECT_EQ(tags.count("tune:confirm"), 2u);
}

TEST_F(RemoteTest, TheRelayPassesRequestsToTheRemoteWorkerAndItsAnswersBack) {
  const std::string db = dir_ + "/h.sqlite";
  testing::Relayed o = relay(
      {R"({"v":2,"type":"list","id":"l"})", R"({"v":2,"type":"devices","id":"d"})", kRunRequest},
      db);
  EXPECT_EQ(o.end, "exited with status 0");
  ASSERT_EQ(o.replies["l"].size(), 1u);
  EXPECT_FALSE(std::get<protocol::Catalog>(o.replies["l"][0].body).families.empty());
  ASSERT_FALSE(o.replies["r"].empty());
  if (deviceCount() == 0) {
    // No GPU over there (CI): the devices request and the run are refused in its words.
    for (const auto& reply : {o.replies["d"].at(0), o.replies["r"].back()}) {
      const auto* failure = std::get_if<protocol::Failure>(&reply.body);
      ASSERT_NE(failure, nullptr) << protocol::encode(reply);
      EXPECT_EQ(failure->kind, ErrorKind::NoDevice);
    }
    return;
  }
  EXPECT_TRUE(std::holds_alternative<protocol::Done>(o.replies["r"].back().body));
  const Outcome history = run({"--db", db, "--json", "history"});
  EXPECT_EQ(nlohmann::json::parse(history.out).size(), 1u) << history.out;
}

TEST_F(RemoteTest, TheRelayStoresTheRemoteRunsHereWithTheirDevice) {
  recordedWorker(0);
  const std::string db = dir_ + "/h.sqlite";
  testing::Relayed o = relay({kRunRequest}, db);
  EXPECT_EQ(o.end, "exited with status 0");
  std::optional<std::int64_t> runId;
  for (const auto& reply : o.replies["r"])
    if (const auto* result = std::get_if<protocol::Result>(&reply.body)) runId = result->runId;
  ASSERT_TRUE(runId);
  const Outcome history = run({"--db", db, "--json", "history"});
  const auto runs = nlohmann::json::parse(history.out);
  ASSERT_EQ(runs.size(), 1u) << history.out;
  EXPECT_EQ(runs[0]["id"], *runId);
  EXPECT_EQ(runs[0]["device"], "NVIDIA H100 80GB HBM3");
}

// The host's GPUs share a sweep's points, a worker each; the runs are one sweep here.
TEST_F(RemoteTest, TheRelayOverSeveralGpusSharesASweepsPoints) {
  recordedWorker(0);
  const std::string db = dir_ + "/h.sqlite";
  testing::Relayed o = relay(
      {R"({"v":2,"type":"sweep","id":"s","family":"copy","variant":"vectorized","params":{},"axes":["n=2^20,2^21,2^22,2^23"],"options":{"budget_s":0.05}})"},
      db, {"--devices", "all"});
  EXPECT_EQ(o.end, "exited with status 0");
  std::set<std::int64_t> ids;
  std::set<std::string> gpus;
  for (const auto& reply : o.replies["s"]) {
    if (const auto* result = std::get_if<protocol::Result>(&reply.body)) ids.insert(*result->runId);
    if (const auto* p = std::get_if<protocol::Progress>(&reply.body))
      gpus.insert(p->text.substr(p->text.rfind(' ') + 1));
  }
  EXPECT_EQ(ids.size(), 4u);
  // Which GPU takes which point is a race with workers this fast (DevicePoolTest shows the
  // sharing); each run names one of the two.
  ASSERT_FALSE(gpus.empty());
  for (const auto& gpu : gpus) EXPECT_TRUE(gpu == "0" || gpu == "1") << gpu;
  ASSERT_FALSE(o.replies["s"].empty());
  const auto* done = std::get_if<protocol::Done>(&o.replies["s"].back().body);
  ASSERT_NE(done, nullptr);
  EXPECT_EQ(done->completed, 4u);
  const auto runs = nlohmann::json::parse(run({"--db", db, "--json", "history"}).out);
  ASSERT_EQ(runs.size(), 4u);
  for (const auto& r : runs) EXPECT_EQ(r["sweep_id"], runs[0]["sweep_id"]);
}

// A tuning from the window over the host's GPUs: its evaluations, its report and its runs here.
TEST_F(RemoteTest, TheRelayOverSeveralGpusTunes) {
  recordedWorker(0);
  const std::string db = dir_ + "/h.sqlite";
  testing::Relayed o = relay(
      {R"({"v":2,"type":"tune","id":"t","family":"copy","variant":"vectorized","params":{},"tune":{"axes":["waves=1,2,4"],"strategy":"exhaustive","confirm":2},"options":{"budget_s":0.05}})"},
      db, {"--devices", "all"});
  EXPECT_EQ(o.end, "exited with status 0");
  std::size_t evaluated = 0, results = 0;
  std::optional<nlohmann::json> report;
  for (const auto& reply : o.replies["t"]) {
    evaluated += std::holds_alternative<protocol::Evaluated>(reply.body);
    results += std::holds_alternative<protocol::Result>(reply.body);
    if (const auto* tuned = std::get_if<protocol::Tuned>(&reply.body)) report = tuned->report;
  }
  EXPECT_EQ(evaluated, 3u);
  EXPECT_EQ(results, 5u);  // three points and two leaders measured again
  ASSERT_TRUE(report);
  EXPECT_EQ((*report)["finalists"].size(), 2u);
  EXPECT_FALSE((*report)["sweep_id"].is_null());
  const auto runs = nlohmann::json::parse(run({"--db", db, "--json", "history"}).out);
  EXPECT_EQ(runs.size(), 5u);
}

TEST_F(RemoteTest, TheRelaySaysADroppedConnectionInOneSentence) {
  recordedWorker(1);
  testing::Relayed o = relay({kRunRequest}, dir_ + "/h.sqlite");
  EXPECT_EQ(o.end,
            "exited with status 1 (kwb: kwbtest: the connection to the worker ended (exited with "
            "status 3 (ending on purpose)); the results that arrived are kept)");
  EXPECT_TRUE(o.replies["r"].empty());
}

}  // namespace
}  // namespace kwb
