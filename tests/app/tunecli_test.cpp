// `kwb tune` without a GPU: replaying a stored sweep, its limits, restrictions and exports, and
// its mistakes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/cli/cliapp.h"
#include "app/cli/exitcodes.h"
#include "core/stats.h"
#include "db/runstore.h"
#include "db/testdb.h"
#include "measure/devicequery.h"

namespace kwb {
namespace {

struct Outcome {
  int code;
  std::string out;
  std::string err;
};

class TuneCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    RunStore store(db());
    store.upsertDevice(testing::fakeDevice());
    sweepId = store.createSweep("copy", "vectorized", nlohmann::json::object(),
                                {"block_size=64,128,256,512", "vector_bytes=4,8,16"});
    // Fastest at block_size=256 vector_bytes=16 (10 us); 512/16 is 0.1 % off it, the rest 3 %
    // and more.
    for (const int block : {64, 128, 256, 512})
      for (const int bytes : {4, 8, 16}) {
        RunResult r = testing::fakeRun("vectorized", "f32", 1000);
        r.launch.set("block_size", std::to_string(block));
        r.launch.set("vector_bytes", std::to_string(bytes));
        double median =
            1e-5 * (1 + 0.03 * std::abs(block - 256) / 64.0 + 0.03 * (16 - bytes) / 4.0);
        if (block == 512 && bytes == 16) median = 1.001e-5;
        r.samples.clear();
        for (int i = -15; i < 15; ++i) r.samples.push_back(median * (1 + 0.0005 * i));
        r.stats = summarize(r.samples);
        r.bandwidth = static_cast<double>(r.bytes) / r.stats.median;
        // Bigger blocks draw more power here: the fastest point is not the most frugal.
        r.metrics.push_back({"gpu.power", 200.0 + block / 4.0, "W", ""});
        store.insertRun(r, sweepId);
      }
  }

  Outcome run(std::vector<std::string> args) {
    args.insert(args.begin(), {"--db", db()});
    std::istringstream in;
    std::ostringstream out, err;
    const int code = runCli(args, in, out, err);
    return {code, out.str(), err.str()};
  }
  nlohmann::json replay(std::vector<std::string> extra) {
    std::vector<std::string> args{"--json", "tune", "--replay", std::to_string(sweepId)};
    args.insert(args.end(), extra.begin(), extra.end());
    const Outcome o = run(args);
    EXPECT_EQ(o.code, kExitOk) << o.err;
    return nlohmann::json::parse(o.out);
  }
  std::string db() const { return dir.file("history.sqlite"); }

  testing::TempDir dir;
  std::int64_t sweepId = 0;
};

TEST_F(TuneCliTest, ReplayFindsTheBestAndTheConfigurationsTiedWithIt) {
  const auto result = replay({"--strategy", "exhaustive"});
  EXPECT_EQ(result["space"]["points"], 12);
  EXPECT_EQ(result["evaluations"].size(), 12u);
  EXPECT_EQ(result["stopped"], "every valid point evaluated");
  EXPECT_TRUE(result["replayed"]);
  const auto& finalists = result["finalists"];
  ASSERT_EQ(finalists.size(), 5u);
  EXPECT_EQ(finalists[0]["params"]["block_size"], "256");
  EXPECT_EQ(finalists[0]["params"]["vector_bytes"], "16");
  EXPECT_EQ(finalists[1]["params"]["block_size"], "512");
  EXPECT_TRUE(finalists[1]["tied_with_best"]);  // 0.1 % apart: within the noise
  for (std::size_t i = 2; i < finalists.size(); ++i) {
    EXPECT_FALSE(finalists[i]["tied_with_best"]);
    EXPECT_EQ(finalists[i]["against_best"]["verdict"], "SLOWER");
  }
}

// A tuning files its finalists' confirmation runs under its sweep; a replay searches the
// search's own measurements, whatever the confirmations read.
TEST_F(TuneCliTest, ReplaySearchesTheSearchsRunsNotTheConfirmations) {
  {
    RunStore store(db());
    RunResult faster = testing::fakeRun("vectorized", "f32", 1000);
    faster.launch.set("block_size", "512");
    faster.launch.set("vector_bytes", "16");
    faster.samples.assign(30, 0.9e-5);
    faster.stats = summarize(faster.samples);
    faster.bandwidth = static_cast<double>(faster.bytes) / faster.stats.median;
    store.insertRun(faster, sweepId, {"tune", "tune:confirm"});
  }
  const auto result = replay({"--strategy", "exhaustive"});
  EXPECT_EQ(result["evaluations"].size(), 12u);
  EXPECT_EQ(result["finalists"][0]["params"]["block_size"], "256");
  EXPECT_EQ(result["finalists"][0]["params"]["vector_bytes"], "16");
}

TEST_F(TuneCliTest, RestrictionsAndBudgetsHold) {
  const auto restricted = replay({"--strategy", "random", "--restrict", "block_size <= 128"});
  EXPECT_EQ(restricted["space"]["valid"], 6);
  EXPECT_EQ(restricted["evaluations"].size(), 6u);
  for (const auto& e : restricted["evaluations"])
    EXPECT_LE(std::stoi(e["params"]["block_size"].get<std::string>()), 128);

  for (const char* strategy : {"random", "annealing", "genetic", "model"}) {
    const auto limited = replay({"--strategy", strategy, "--budget", "5", "--search-seed", "3"});
    EXPECT_EQ(limited["evaluations"].size(), 5u) << strategy;
    EXPECT_EQ(limited["stopped"], "evaluation budget spent") << strategy;
    // The best so far never gets worse.
    double best = 1;
    for (const auto& e : limited["evaluations"]) {
      EXPECT_LE(e["best_score"].get<double>(), best);
      best = e["best_score"];
    }
  }
}

TEST_F(TuneCliTest, TimeAndEnergyTogetherListTheParetoFront) {
  const auto result = replay({"--strategy", "exhaustive", "--objective", "time,energy"});
  const auto& front = result["pareto_front"];
  ASSERT_GE(front.size(), 2u);
  for (const auto& p : front)
    for (const auto& e : result["evaluations"]) {
      const double t = e["median_s"], j = e["energy_j"];
      const bool better = t <= p["median_s"].get<double>() && j <= p["energy_j"].get<double>() &&
                          (t < p["median_s"].get<double>() || j < p["energy_j"].get<double>());
      EXPECT_FALSE(better) << p.dump() << " is beaten by " << e.dump();
    }
  const Outcome text = run({"tune", "--replay", std::to_string(sweepId), "--strategy", "exhaustive",
                            "--objective", "time,energy"});
  EXPECT_NE(text.out.find("Pareto front of time and energy"), std::string::npos) << text.out;
}

TEST_F(TuneCliTest, ExportsTheBestAsJsonAndAsAHeader) {
  const std::string json = dir.file("best.json");
  const std::string header = dir.file("best.h");
  const Outcome o = run({"tune", "--replay", std::to_string(sweepId), "--strategy", "exhaustive",
                         "-o", json, "--header", header});
  ASSERT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("2 configurations cannot be told apart"), std::string::npos) << o.out;
  std::ifstream jsonFile(json);
  EXPECT_EQ(nlohmann::json::parse(jsonFile)["finalists"][0]["params"]["vector_bytes"], "16");
  std::stringstream h;
  h << std::ifstream(header).rdbuf();
  EXPECT_NE(h.str().find("namespace kwb_tuned::copy_vectorized {"), std::string::npos) << h.str();
  EXPECT_NE(h.str().find("inline constexpr long long block_size = 256;"), std::string::npos);
  EXPECT_NE(h.str().find("inline constexpr const char* dtype = \"f32\";"), std::string::npos);
}

// Three spaces recorded exhaustively on an H100 (tests/fixtures/tune): elementwise packed over
// block_size x waves x pack_size x unroll (504 points), a kernel file's blocked matrix multiply
// over five tile sizes (508 of 768 valid) and a blocked transpose over six knobs (1050 of 1920).
TEST_F(TuneCliTest, AnnealingComesWithinTwoPercentOfTheBestInATenthOfEachRecordedSpace) {
  const std::string fixture = dir.file("h100.sqlite");
  std::filesystem::copy_file(KWB_FIXTURES_DIR "/tune/h100-exhaustive.sqlite", fixture);
  const auto replayFixture = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"--db", fixture, "--json", "tune", "--confirm", "0"});
    std::istringstream in;
    std::ostringstream out, err;
    EXPECT_EQ(runCli(args, in, out, err), kExitOk) << err.str();
    return nlohmann::json::parse(out.str());
  };
  for (const int sweep : {1, 2, 3}) {
    const std::string id = std::to_string(sweep);
    const auto all = replayFixture({"--replay", id, "--strategy", "exhaustive"});
    const std::size_t valid = all["space"]["valid"];
    EXPECT_GE(valid, 500u);
    EXPECT_EQ(all["evaluations"].size(), valid);
    double best = 1;
    for (const auto& e : all["evaluations"]) best = std::min(best, e["score"].get<double>());
    std::size_t reached = 0;
    for (int seed = 1; seed <= 10; ++seed) {
      const auto tuned =
          replayFixture({"--replay", id, "--strategy", "annealing", "--search-seed",
                         std::to_string(seed), "--budget", std::to_string(valid / 10)});
      reached += tuned["evaluations"].back()["best_score"].get<double>() <= best * 1.02;
    }
    EXPECT_GE(reached, 6u) << "sweep " << sweep << ": " << reached << " of 10 seeds";
  }

  // The H100's runs read no power (no NVML in that build): energy cannot be the objective.
  {
    std::istringstream in;
    std::ostringstream out, err;
    EXPECT_EQ(
        runCli({"--db", fixture, "tune", "--replay", "1", "--objective", "energy"}, in, out, err),
        kExitBadInput);
    EXPECT_NE(err.str().find("the energy objective needs the GPU's power readings"),
              std::string::npos)
        << err.str();
  }

  // A kernel file's best comes with what to compile it with, read from the stored spec.
  const std::string header = dir.file("matmul.h");
  replayFixture({"--replay", "2", "--strategy", "exhaustive", "--header", header});
  std::stringstream h;
  h << std::ifstream(header).rdbuf();
  EXPECT_NE(h.str().find("// The kernel to instantiate: matmul_blocked<64, 64, 32, 4, 4>"),
            std::string::npos)
      << h.str();
  EXPECT_NE(h.str().find("inline constexpr long long BK = 32;"), std::string::npos);
}

TEST_F(TuneCliTest, MistakesAreOneSentence) {
  const auto bad = [&](std::vector<std::string> args, const std::string& message) {
    const Outcome o = run(args);
    EXPECT_EQ(o.code, kExitBadInput) << o.err;
    EXPECT_NE(o.err.find(message), std::string::npos) << o.err;
  };
  bad({"tune", "--replay", "99"}, "there is no sweep 99");
  bad({"tune", "copy", "vectorized"}, "at least one -s");
  bad({"tune", "--replay", std::to_string(sweepId), "--strategy", "bayes"},
      "'bayes' is none of exhaustive");
  bad({"tune", "--replay", std::to_string(sweepId), "--budget", "5x"}, "--budget '5x'");
  bad({"tune", "--replay", std::to_string(sweepId), "--restrict", "threads < 4"},
      "threads, which is not a parameter");
  bad({"tune", "copy", "vectorized", "-s", "block_size=64,100"}, "100 is not a multiple of 32");
  bad({"tune", "copy", "vectorized", "-s", "block_size=64,128", "--verify-only"},
      "a tuning needs times");
  if (deviceCount() == 0) {
    const Outcome o = run({"tune", "copy", "vectorized", "-s", "block_size=64,128"});
    EXPECT_EQ(o.code, kExitNoDevice);
  }
}

}  // namespace
}  // namespace kwb
