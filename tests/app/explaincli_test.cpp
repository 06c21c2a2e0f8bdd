// kwb explain on runs recorded on an H100 with every metric set (tests/fixtures/explain): the
// naive transpose against the tiled one, the tiled one without and with its padding, the naive
// elementwise relu against the packed one, and the packed one at one wave; and runs with the
// flops set and the waves of their launches (h100-why.json).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/cli/cliapp.h"
#include "app/cli/exitcodes.h"
#include "core/explain.h"
#include "core/jsoncodec.h"
#include "core/roofline.h"
#include "core/waves.h"
#include "db/runstore.h"
#include "db/testdb.h"

namespace kwb {
namespace {

std::vector<RunResult> recorded(const char* file = "h100-runs.json") {
  std::ifstream in(std::string(KWB_FIXTURES_DIR "/explain/") + file);
  std::vector<RunResult> runs;
  for (const auto& run : nlohmann::json::parse(in)) runs.push_back(runResultFromJson(run));
  return runs;
}

// The reading that starts with `start`; empty where none does.
std::string reading(const std::vector<std::string>& readings, const std::string& start) {
  for (const auto& r : readings)
    if (r.rfind(start, 0) == 0) return r;
  return {};
}

TEST(Explain, TheTiledTransposeCoalescesAndMovesAnEighthOfTheBytes) {
  const auto runs = recorded();
  ASSERT_EQ(runs.size(), 6u);
  const auto r = readDifference(runs[0], runs[2]);
  EXPECT_NE(reading(r, "time:").find("FASTER"), std::string::npos);
  EXPECT_NE(reading(r, "global loads: 32 -> 4"), "");
  EXPECT_NE(reading(r, "DRAM traffic:").find("0.12x"), std::string::npos);
  EXPECT_NE(reading(r, "warp instructions executed:"), "");
  // The largest moves first: bank conflicts from none, then the written bytes.
  const auto changes = metricChanges(runs[0], runs[2]);
  ASSERT_GE(changes.size(), 3u);
  EXPECT_EQ(changes[0].before, 0);
  EXPECT_EQ(changes[2].name, "dram__bytes_write.sum");
}

TEST(Explain, PaddingTheTileRemovesTheBankConflicts) {
  const auto runs = recorded();
  const auto r = readDifference(runs[1], runs[2]);
  EXPECT_NE(reading(r, "shared-memory bank conflicts on loads: 1.63e+07 -> 1.806e+04"), "");
  EXPECT_EQ(reading(r, "global loads"), "");  // the same accesses
  EXPECT_EQ(metricChanges(runs[1], runs[2]).front().name,
            "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
}

TEST(Explain, PacksAreWiderAccessesInFewerInstructionsAndWavesHaveTails) {
  const auto runs = recorded();
  const auto packed = readDifference(runs[3], runs[4]);
  EXPECT_NE(reading(packed, "global loads: 2 -> 16"), "");
  EXPECT_NE(reading(packed, "warp instructions executed:").find("0.19x"), std::string::npos);
  EXPECT_NE(reading(packed, "the grid:").find("partial last wave"), std::string::npos);
  const auto oneWave = readDifference(runs[4], runs[5]);
  EXPECT_NE(reading(oneWave, "achieved occupancy: 57 % -> 40 %")
                .find("the launch allows 75 % -> "
                      "50 %"),
            std::string::npos);
  EXPECT_NE(reading(oneWave, "time:").find("UNSURE"), std::string::npos);
}

// Runs of 2026-11-24 with every set (flops included) and the waves of their launches: a kernel
// file's saxpy, elementwise gelu f32 packed by 4, and naive (newest first).
TEST(Explain, RecordedWavesAndCountedFlopsReadBack) {
  const auto runs = recorded("h100-why.json");
  ASSERT_EQ(runs.size(), 3u);
  const RunResult &saxpy = runs[0], &packed = runs[1], &naive = runs[2];
  constexpr int kH100Sms = 132;
  // The packed kernel's registers hold 4 blocks an SM, not the 8 its threads would allow.
  const auto packedWaves = waveLaunches(packed, kH100Sms);
  ASSERT_EQ(packedWaves.size(), 1u);
  EXPECT_EQ(packedWaves[0].residentPerSm, 4);
  EXPECT_EQ(packedWaves[0].limiter, "registers");
  EXPECT_NEAR(packedWaves[0].waves(), 4096.0 / (4 * kH100Sms), 1e-12);
  EXPECT_EQ(waveLaunches(naive, kH100Sms)[0].limiter, "threads");
  EXPECT_EQ(waveLaunches(saxpy, kH100Sms)[0].residentPerSm, 5);  // 48 registers a thread
  const auto r = readDifference(naive, packed);
  EXPECT_NE(reading(r, "achieved occupancy:")
                .find("allows 100 % -> 50 % (limited by threads -> "
                      "registers)"),
            std::string::npos)
      << reading(r, "achieved occupancy:");
  EXPECT_NE(reading(r,
                    "the grid: 65536 blocks (62.1 waves of what the SMs hold at once) -> 4096 "
                    "(7.76 waves)"),
            "");

  // gelu's erf compiles to about 4.5 times the flops it declares; saxpy's FMA is what it says.
  const auto declared = rooflinePoint(naive), counted = measuredRooflinePoint(naive);
  ASSERT_TRUE(declared && counted);
  EXPECT_DOUBLE_EQ(declared->intensity, 0.625);
  EXPECT_GT(counted->intensity / declared->intensity, 4.0);
  EXPECT_LT(counted->intensity / declared->intensity, 5.0);
  const auto saxpyCounted = measuredRooflinePoint(saxpy);
  ASSERT_TRUE(saxpyCounted);
  EXPECT_NEAR(saxpyCounted->intensity, rooflinePoint(saxpy)->intensity, 0.02 * 0.1667);
  EXPECT_FALSE(measuredRooflinePoint(recorded()[0]));  // runs without the flops set
}

TEST(Explain, TheCommandReadsStoredRuns) {
  testing::TempDir dir;
  const std::string db = dir.file("h.sqlite");
  std::vector<std::int64_t> ids;
  {
    RunStore store(db);
    store.upsertDevice(testing::fakeDevice());
    for (RunResult run : recorded()) {
      run.deviceUuid = "GPU-aaaa";
      ids.push_back(store.insertRun(run));
    }
  }
  const auto explain = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"--db", db});
    std::istringstream in;
    std::ostringstream out, err;
    const int code = runCli(args, in, out, err);
    return std::tuple{code, out.str(), err.str()};
  };
  const auto [code, out, err] =
      explain({"explain", std::to_string(ids[1]), std::to_string(ids[2])});
  EXPECT_EQ(code, kExitOk) << err;
  EXPECT_NE(out.find("- shared-memory bank conflicts on loads"), std::string::npos) << out;
  EXPECT_NE(out.find("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
            std::string::npos);
  const auto [jsonCode, json, jsonErr] =
      explain({"--json", "explain", std::to_string(ids[0]), std::to_string(ids[2])});
  EXPECT_EQ(jsonCode, kExitOk) << jsonErr;
  const auto parsed = nlohmann::json::parse(json);
  EXPECT_GE(parsed["readings"].size(), 4u);
  EXPECT_TRUE(parsed["metrics"][0]["ratio"].is_null());  // from 0
  EXPECT_NE(std::get<0>(explain({"explain", std::to_string(ids[0]), "999"})), kExitOk);
}

}  // namespace
}  // namespace kwb
