#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/cli/cliapp.h"
#include "app/cli/exitcodes.h"
#include "core/protocol.h"
#include "measure/devicequery.h"

namespace kwb {
namespace {

// kwb --host through a real sshd on loopback, started by the test with keys of its own
// (tests/remote/sshd_loopback.sh): the remote worker is this build's kwb, or a recorded H100
// worker (tests/fixtures/worker/h100_run.jsonl) that can end on purpose.
class RemoteTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::TempDir() + "kwb-remote-" + std::to_string(getpid());
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
    std::filesystem::remove_all(dir_);
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

  // The recorded worker as the remote kwb: its hello, its answer to a run (ids made the
  // request's), one device, and an end on its `endAt`-th run.
  void recordedWorker(int endAt, const std::string& hello = {}) {
    std::ifstream recorded(KWB_FIXTURES_DIR "/worker/h100_run.jsonl");
    std::string line, answer, first;
    std::getline(recorded, first);
    DeviceInfo gpu;
    gpu.name = "NVIDIA H100 80GB HBM3";
    while (std::getline(recorded, line)) {
      const protocol::Reply reply = protocol::decodeReply(line);
      if (const auto* result = std::get_if<protocol::Result>(&reply.body))
        gpu.uuid = result->run.deviceUuid;
      const auto at = line.find("\"id\":\"r1\"");
      if (at != std::string::npos) line.replace(at, 9, "\"id\":\"@ID@\"");
      answer += line + "\n";
    }
    std::ofstream(dir_ + "/hello") << (hello.empty() ? first : hello) << "\n";
    std::ofstream(dir_ + "/answer") << answer;
    std::ofstream(dir_ + "/devices")
        << protocol::encode(protocol::Reply{"@ID@", protocol::DeviceList{{gpu}}});
    setenv("KWB_REMOTE_KWB",
           ("bash " KWB_FIXTURES_DIR "/workers/fake_worker.sh " + dir_ + "/hello " + dir_ +
            "/answer " + std::to_string(endAt) + " " + dir_ + "/devices")
               .c_str(),
           1);
  }

  std::string dir_;
};

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

}  // namespace
}  // namespace kwb
