#include "app/cli/devicepool.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "core/error.h"

namespace kwb {
namespace {

// Fake workers answer each run with a canned result, so that the sharing of points and the end
// of a worker can be seen without a GPU.
class DevicePoolTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::TempDir() + "kwb-pool-" + std::to_string(getpid());
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ + "/hello")
        << protocol::encode(protocol::Reply{"", protocol::Hello{"fake"}});
    RunResult run;
    run.family = "copy";
    run.variant = "vectorized";
    run.ceilingBandwidth = 3e12;  // as the worker's own measured ceiling
    std::ofstream(dir_ + "/answer")
        << protocol::encode(protocol::Reply{"@ID@", protocol::Result{0, run, {}}})
        << protocol::encode(protocol::Reply{"@ID@", protocol::Done{1, false}});
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // `log`: where the worker writes down each request it gets.
  std::vector<std::string> fake(int endAt, const std::string& log = "") const {
    return {"bash",
            KWB_FIXTURES_DIR "/workers/fake_worker.sh",
            dir_ + "/hello",
            dir_ + "/answer",
            std::to_string(endAt),
            "",
            "",
            log};
  }
  // The copy ceilings of the run requests in a worker's log.
  static std::vector<std::optional<CopyCeiling>> ceilingsSent(const std::string& log) {
    std::vector<std::optional<CopyCeiling>> out;
    std::ifstream in(log);
    for (std::string line; std::getline(in, line);) {
      const protocol::Request request = protocol::decodeRequest(line);
      if (const auto* run = std::get_if<protocol::RunRequest>(&request.body))
        out.push_back(run->options.copyCeiling);
    }
    return out;
  }
  // Runs n points on one stand-in worker of `device` whose history holds `given`: the ceilings its
  // requests carried, and those the pool passed on to be kept.
  struct CeilingRun {
    std::vector<std::optional<CopyCeiling>> sent;
    std::vector<std::pair<int, double>> kept;
  };
  CeilingRun runWithCeiling(const std::string& name, int device, std::optional<CopyCeiling> given,
                            int n) const {
    const std::string log = dir_ + "/" + name + ".log";
    CeilingRun out;
    PoolCeilings ceilings;
    if (given) ceilings.given = {*given};
    ceilings.measured = [&](int d, const CopyCeiling& ceiling) {
      out.kept.emplace_back(d, ceiling.bandwidth);
    };
    EXPECT_EQ(runOnDevices({fake(0, log)}, {device}, {"copy", "vectorized", {}}, points(n), {},
                           nullptr, {}, ceilings),
              static_cast<std::size_t>(n));
    out.sent = ceilingsSent(log);
    return out;
  }
  static std::vector<RawParams> points(int n) {
    std::vector<RawParams> out;
    for (int i = 0; i < n; ++i) out.push_back({{"n", std::to_string(1024 * (i + 1))}});
    return out;
  }

  std::string dir_;
};

TEST_F(DevicePoolTest, EveryPointRunsOnceSharedAmongTheWorkers) {
  std::map<std::size_t, int> ranOn;
  PoolEvents events;
  events.result = [&](std::size_t index, int device, const RunResult& run) {
    EXPECT_EQ(run.variant, "vectorized");
    EXPECT_EQ(ranOn.count(index), 0u) << "point " << index << " ran twice";
    ranOn[index] = device;
  };
  events.failed = [&](std::size_t index, int, const std::string& sentence) {
    ADD_FAILURE() << "point " << index << ": " << sentence;
  };
  const std::size_t ran = runOnDevices({fake(0), fake(0)}, {0, 1}, {"copy", "vectorized", {}},
                                       points(40), {}, nullptr, events);
  EXPECT_EQ(ran, 40u);
  ASSERT_EQ(ranOn.size(), 40u);
  std::set<int> devices;
  for (const auto& [index, device] : ranOn) devices.insert(device);
  EXPECT_EQ(devices, (std::set<int>{0, 1}));
}

// A tuning's batches go to the same workers: the worker that ends on its third request has served
// the first run's two.
TEST_F(DevicePoolTest, APoolKeepsItsWorkersFromOneRunToTheNext) {
  DevicePool pool({fake(3)}, {0});
  std::size_t failed = 0;
  PoolEvents events;
  events.failed = [&](std::size_t, int, const std::string&) { ++failed; };
  EXPECT_EQ(pool.run({"copy", "vectorized", {}}, points(2), {}, nullptr, events), 2u);
  EXPECT_THROW(pool.run({"copy", "vectorized", {}}, points(2), {}, nullptr, events), Error);
  EXPECT_EQ(failed, 1u);  // the third point, lost with its worker
}

TEST_F(DevicePoolTest, AWorkerThatEndsTakesOnlyItsPointWithIt) {
  std::set<std::size_t> ran;
  std::vector<std::string> failures, ended;
  PoolEvents events;
  events.result = [&](std::size_t index, int, const RunResult&) { ran.insert(index); };
  events.failed = [&](std::size_t index, int device, const std::string& sentence) {
    EXPECT_EQ(device, 1);
    EXPECT_EQ(ran.count(index), 0u);
    failures.push_back(sentence);
  };
  events.workerEnded = [&](int device, const std::string& sentence) {
    EXPECT_EQ(device, 1);
    ended.push_back(sentence);
  };
  // Device 1's worker ends on its third point.
  const std::size_t count = runOnDevices({fake(0), fake(3)}, {0, 1}, {"copy", "vectorized", {}},
                                         points(20), {}, nullptr, events);
  EXPECT_EQ(count, 19u);
  EXPECT_EQ(ran.size(), 19u);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_NE(failures[0].find("the worker of device 1 exited with status 3 (ending on purpose)"),
            std::string::npos)
      << failures[0];
  EXPECT_NE(failures[0].find("its point is lost"), std::string::npos);
  ASSERT_EQ(ended.size(), 1u);
}

TEST_F(DevicePoolTest, WhenEveryWorkerEndsThePointsLeftAreSaid) {
  PoolEvents events;
  std::size_t failed = 0;
  events.failed = [&](std::size_t, int, const std::string&) { ++failed; };
  try {
    runOnDevices({fake(2)}, {0}, {"copy", "vectorized", {}}, points(5), {}, nullptr, events);
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::Internal);
    EXPECT_NE(std::string(error.what()).find("every worker ended with 3 of the points left"),
              std::string::npos)
        << error.what();
  }
  EXPECT_EQ(failed, 1u);
}

TEST_F(DevicePoolTest, ACancelledPoolRunsNothingMoreAndSaysSo) {
  std::atomic<bool> cancel{true};
  std::size_t results = 0;
  PoolEvents events;
  events.result = [&](std::size_t, int, const RunResult&) { ++results; };
  EXPECT_THROW(
      {
        try {
          runOnDevices({fake(0), fake(0)}, {0, 1}, {"copy", "vectorized", {}}, points(6), {},
                       &cancel, events);
        } catch (const Error& error) {
          EXPECT_EQ(error.kind(), ErrorKind::Cancelled);
          throw;
        }
      },
      Error);
  EXPECT_EQ(results, 0u);
}

TEST_F(DevicePoolTest, AProgramThatCannotStartEndsItsWorkerWithTheReason) {
  std::vector<std::string> ended;
  PoolEvents events;
  events.workerEnded = [&](int, const std::string& sentence) { ended.push_back(sentence); };
  const std::size_t ran = runOnDevices({{"/nonexistent/kwb", "worker"}, fake(0)}, {0, 1},
                                       {"copy", "vectorized", {}}, points(4), {}, nullptr, events);
  EXPECT_EQ(ran, 4u);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_NE(ended[0].find("exited with status 127 (cannot start /nonexistent/kwb"),
            std::string::npos)
      << ended[0];
}

// The real worker without a GPU: each point is refused with the worker's own sentence.
TEST_F(DevicePoolTest, TheRealWorkerWithoutAGpuRefusesEachPoint) {
  std::vector<std::string> refusals;
  PoolEvents events;
  events.failed = [&](std::size_t, int, const std::string& sentence) {
    refusals.push_back(sentence);
  };
  events.result = [&](std::size_t, int, const RunResult&) {};
  const std::size_t ran =
      runOnDevices({{KWB_EXECUTABLE, "--no-store", "--device", "0", "worker"}}, {0},
                   {"copy", "vectorized", {}}, points(2), {}, nullptr, events);
  if (ran > 0) GTEST_SKIP() << "a GPU is here: the points ran";
  ASSERT_EQ(refusals.size(), 2u);
  EXPECT_NE(refusals[0].find("no CUDA device"), std::string::npos) << refusals[0];
}

// A worker given its GPU's ceiling from the history gets it with every point and measures none;
// a worker given none measures its own, which its first run says and the pool passes on once.
TEST_F(DevicePoolTest, WorkersGetTheHistorysCeilingOrTheirOwnIsKept) {
  for (const bool given : {true, false}) {
    SCOPED_TRACE(given ? "given" : "not given");
    const CeilingRun run = runWithCeiling(
        given ? "given" : "own", 1,
        given ? std::optional(CopyCeiling{2.5e12, 1u << 30, "vectorized", 1}) : std::nullopt, 4);
    ASSERT_EQ(run.sent.size(), 4u);
    for (const auto& ceiling : run.sent) {
      EXPECT_EQ(ceiling.has_value(), given);
      if (ceiling) {
        EXPECT_EQ(ceiling->bandwidth, 2.5e12);
      }
    }
    const std::vector<std::pair<int, double>> expected =
        given ? std::vector<std::pair<int, double>>{}
              : std::vector<std::pair<int, double>>{{1, 3e12}};
    EXPECT_EQ(run.kept, expected);
  }
}

// A worker of an older build (its hello lists no options) would refuse the ceiling: it gets none,
// measures its own, and that one is kept.
TEST_F(DevicePoolTest, AnOlderWorkerGetsNoCeilingAndItsOwnIsKept) {
  protocol::Hello older{"0.1.0"};
  older.options.clear();
  std::ofstream(dir_ + "/hello") << protocol::encode(protocol::Reply{"", older});
  const CeilingRun run =
      runWithCeiling("older", 0, CopyCeiling{2.5e12, 1u << 30, "vectorized", 1}, 3);
  ASSERT_EQ(run.sent.size(), 3u);
  for (const auto& ceiling : run.sent) EXPECT_FALSE(ceiling.has_value());
  EXPECT_EQ(run.kept, (std::vector<std::pair<int, double>>{{0, 3e12}}));
}

}  // namespace
}  // namespace kwb
