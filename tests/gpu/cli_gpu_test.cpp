// `kwb run`, `kwb sweep` and the worker end to end on the GPU, with a real history database.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <sstream>

#include "app/cli/cliapp.h"
#include "app/cli/exitcodes.h"
#include "app/workerharness.h"
#include "core/cuobjdump.h"
#include "core/jsoncodec.h"
#include "core/protocol.h"
#include "db/runstore.h"
#include "db/testdb.h"

namespace kwb {
namespace {

using nlohmann::json;
using testing::WorkerHarness;

class CliGpu : public ::testing::Test {
 protected:
  int run(std::vector<std::string> args, std::string* out = nullptr, std::string* err = nullptr) {
    args.insert(args.begin(), {"--db", dir.file("h.sqlite")});
    std::istringstream in;
    std::ostringstream o;
    std::ostringstream e;
    const int code = runCli(args, in, o, e);
    if (out) *out = o.str();
    if (err) *err = e.str();
    return code;
  }
  testing::TempDir dir;
};

// Records when each line arrives: a sweep's rows must come as its points finish, not at the end.
class TimedLines : public std::stringbuf {
 public:
  std::vector<std::pair<std::string, double>> lines;

 protected:
  int sync() override {
    const std::string text = str();
    for (std::size_t start = 0, end; (end = text.find('\n', start)) != std::string::npos;
         start = end + 1)
      if (start >= seen_) lines.emplace_back(text.substr(start, end - start), seconds());
    seen_ = text.size();
    return 0;
  }

 private:
  static double seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  std::size_t seen_ = 0;
};

TEST_F(CliGpu, SweepRowsPrintAsTheirPointsFinish) {
  TimedLines lines;
  std::ostream out(&lines);
  std::istringstream in;
  std::ostringstream err;
  ASSERT_EQ(
      runCli({"--db", dir.file("h.sqlite"), "sweep", "copy", "vectorized", "-s", "n=2^20:2^22:*2",
              "--budget", "0.3", "--target-rsd", "1e-9", "--max-samples", "1000000"},
             in, out, err),
      kExitOk)
      << err.str();
  std::vector<double> rows;
  for (const auto& [line, at] : lines.lines)
    if (line.starts_with("2^20 ") || line.starts_with("2^21 ") || line.starts_with("2^22 "))
      rows.push_back(at);
  ASSERT_EQ(rows.size(), 3u) << lines.str();
  // Each point takes its 0.3 s budget: the first row was out long before the last.
  EXPECT_GT(rows.back() - rows.front(), 0.4) << lines.str();
  EXPECT_LT(lines.lines.front().second, rows.front()) << "the header comes first";
}

// A lesson runs its baseline and its step, holds the speed-up against the prediction, shows the
// explaining metric for both, and tags the stored runs.
TEST_F(CliGpu, LessonsRunAgainstThePrediction) {
  std::string out;
  std::string err;
  ASSERT_EQ(run({"lesson", "permute-5-padding", "--predict", "1.5", "--budget", "0.1"}, &out, &err),
            kExitOk)
      << err;
  EXPECT_NE(out.find("baseline  tiled: "), std::string::npos) << out;
  EXPECT_NE(out.find("you predicted 1.5x"), std::string::npos) << out;
  EXPECT_NE(out.find("why, l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum: "),
            std::string::npos)
      << out;
  RunStore store(dir.file("h.sqlite"));
  HistoryFilter tagged;
  tagged.tag = "lesson:permute-5-padding";
  EXPECT_EQ(store.count(tagged), 2u);

  ASSERT_EQ(run({"--json", "lesson", "giou-4-fused", "--run", "--budget", "0.05"}, &out, &err),
            kExitOk)
      << err;
  const json result = json::parse(out);
  EXPECT_GT(result["measured"].get<double>(), 1.0);  // one launch against 33
  EXPECT_EQ(result["runs"].size(), 2u);
}

// A packed kernel's SASS moves 16 bytes per access where the naive one moves 4; asked again, the
// listing comes from the database, even where cuobjdump is gone.
TEST_F(CliGpu, SassShowsTheWideAccessesOfPackedKernels) {
  if (!findCuobjdump()) GTEST_SKIP() << "no cuobjdump on this machine";
  std::string out;
  std::string err;
  ASSERT_EQ(
      run({"sass", "elementwise", "packed", "pack_size=4", "n=2^20", "--summary"}, &out, &err),
      kExitOk)
      << err;
  EXPECT_NE(out.find("SASS from cuobjdump"), std::string::npos) << out;
  EXPECT_NE(out.find("packedKernel<4, "), std::string::npos) << out;
  EXPECT_NE(out.find("LDG.E.128"), std::string::npos) << out;
  EXPECT_NE(out.find("STG.E.128"), std::string::npos) << out;

  ASSERT_EQ(run({"--json", "sass", "elementwise", "naive", "n=2^20"}, &out, &err), kExitOk) << err;
  const json naive = json::parse(out);
  ASSERT_EQ(naive["kernels"].size(), 1u);
  const std::string listing = naive["kernels"][0]["listing"];
  EXPECT_NE(listing.find("LDG.E"), std::string::npos);
  EXPECT_EQ(listing.find(".128"), std::string::npos) << listing;

  ::setenv("KWB_CUOBJDUMP", "/nonexistent/cuobjdump", 1);
  const int cached = run({"sass", "elementwise", "packed", "pack_size=4", "n=2^20"}, &out, &err);
  std::istringstream in;
  std::ostringstream ignored;
  std::ostringstream said;
  const int uncached = runCli(
      {"--db", dir.file("fresh.sqlite"), "sass", "elementwise", "packed", "pack_size=4", "n=2^20"},
      in, ignored, said);
  err = said.str();
  ::unsetenv("KWB_CUOBJDUMP");
  EXPECT_EQ(cached, kExitOk);
  EXPECT_NE(out.find("SASS from the history database"), std::string::npos) << out;
  EXPECT_EQ(uncached, kExitTool);
  EXPECT_NE(err.find("cuobjdump"), std::string::npos) << err;

  ASSERT_EQ(run({"sass", "copy", "memcpy", "n=2^20"}, &out, &err), kExitOk) << err;
  EXPECT_NE(out.find("launches no kernel"), std::string::npos) << out;
}

// Two stored runs explained with their machine code: the packed kernel's 128-bit accesses.
TEST_F(CliGpu, ExplainWithSassNamesTheWiderAccesses) {
  if (!findCuobjdump()) GTEST_SKIP() << "no cuobjdump on this machine";
  std::string out;
  std::string err;
  ASSERT_EQ(run({"run", "elementwise", "naive", "dtype=f32", "n=2^22"}, &out, &err), kExitOk)
      << err;
  ASSERT_EQ(run({"run", "elementwise", "packed", "dtype=f32", "pack_size=4", "n=2^22"}, &out, &err),
            kExitOk)
      << err;
  ASSERT_EQ(run({"explain", "1", "2", "--sass"}, &out, &err), kExitOk) << err;
  EXPECT_NE(out.find("global accesses in the machine code: 32-bit (LDG.E"), std::string::npos)
      << out;
  EXPECT_NE(out.find("a 128-bit access moves what 4 32-bit ones did"), std::string::npos) << out;
}

// The worker answers a sass request with the kernels of a multi-kernel chain, in launch order.
TEST_F(CliGpu, WorkerSassRepliesListEveryKernelOfAChain) {
  if (!findCuobjdump()) GTEST_SKIP() << "no cuobjdump on this machine";
  RunStore store(dir.file("h.sqlite"));
  WorkerHarness worker(&store);
  worker.send(protocol::Request{"s", protocol::SassRequest{{"giou", "padded", {{"batch", "4"}}}}});
  const json reply =
      worker.output().waitFor([](const json& m) { return m.value("id", "") == "s"; }, nullptr, 120);
  ASSERT_EQ(reply.value("type", ""), "sass") << reply.dump();
  const SassReport report = sassReportFromJson(reply["report"]);
  EXPECT_GT(report.kernels.size(), 5u);
  for (const auto& kernel : report.kernels) EXPECT_FALSE(kernel.listing.empty()) << kernel.name;
}

TEST_F(CliGpu, RunStoresAVerifiedResultWithTheCachedCeiling) {
  std::string out;
  std::string err;
  ASSERT_EQ(run({"run", "copy", "vectorized", "n=2^22", "--budget", "0.1"}, &out, &err), kExitOk)
      << err;
  EXPECT_NE(out.find("of copy ceiling"), std::string::npos) << out;
  EXPECT_NE(err.find("measuring the copy ceiling"), std::string::npos);

  // The second run reads the ceiling from the database instead of measuring again.
  ASSERT_EQ(run({"--json", "run", "copy", "memcpy", "n=2^22", "--budget", "0.1"}, &out, &err),
            kExitOk);
  EXPECT_EQ(err.find("measuring the copy ceiling"), std::string::npos) << err;
  const json result = json::parse(out);
  EXPECT_GT(result["copy_ceiling"]["bandwidth"].get<double>(), 0);
  EXPECT_EQ(result["runs"][0]["status"], "ok");

  RunStore store(dir.file("h.sqlite"));
  const auto runs = store.query({});
  ASSERT_EQ(runs.size(), 2u);
  for (const auto& record : runs) {
    EXPECT_EQ(record.result.status, RunStatus::Ok);
    EXPECT_TRUE(record.result.verification.passed);
    EXPECT_GT(record.result.ceilingBandwidth, 0);
    EXPECT_FALSE(record.deviceName.empty());
    EXPECT_EQ(store.run(record.id)->result.samples.size(), record.result.stats.count);
  }
  ASSERT_EQ(run({"devices"}, &out), kExitOk);
  EXPECT_EQ(out.find("not measured"), std::string::npos) << out;
}

TEST_F(CliGpu, SweepStoresEveryPointUnderOneSweep) {
  std::string out;
  std::string err;
  ASSERT_EQ(run({"--json", "sweep", "copy", "vectorized", "n=2^20", "-s", "vector_bytes=4,16", "-s",
                 "waves=1,4", "--budget", "0.05"},
                &out, &err),
            kExitOk)
      << err;
  const json result = json::parse(out);
  ASSERT_EQ(result["runs"].size(), 4u);
  EXPECT_EQ(result["runs"][3]["launch"]["vector_bytes"], "16");
  EXPECT_EQ(result["runs"][3]["launch"]["waves"], "4");
  RunStore store(dir.file("h.sqlite"));
  HistoryFilter f;
  f.sweepId = result["sweep_id"].get<std::int64_t>();
  EXPECT_EQ(store.count(f), 4u);
}

TEST_F(CliGpu, ElementwiseSweepsOverLaunchParametersAreStored) {
  std::string out;
  std::string err;
  ASSERT_EQ(run({"--json", "sweep", "elementwise", "packed", "op=gelu", "dtype=bf16", "n=2^20",
                 "-s", "pack_size=2,4,8", "-s", "block_size=128,512", "--budget", "0.05"},
                &out, &err),
            kExitOk)
      << err;
  const json result = json::parse(out);
  ASSERT_EQ(result["runs"].size(), 6u);
  EXPECT_EQ(result["runs"][5]["derived"]["pack_size_used"], "8");
  RunStore store(dir.file("h.sqlite"));
  HistoryFilter f;
  f.family = "elementwise";
  f.dtype = "bf16";
  EXPECT_EQ(store.count(f), 6u);
}

TEST_F(CliGpu, TooMuchMemoryNamesTheSizeAndStoresNothing) {
  std::string err;
  EXPECT_EQ(run({"run", "copy", "memcpy", "n=2^34", "dtype=f64"}, nullptr, &err), kExitBadInput);
  EXPECT_NE(err.find("parameter 'n'"), std::string::npos) << err;
  RunStore store(dir.file("h.sqlite"));
  EXPECT_EQ(store.count({}), 0u);
}

TEST_F(CliGpu, WorkerResolvesWhatAVariantDerivesOnTheDevice) {
  WorkerHarness worker;
  worker.send(protocol::Request{
      "q",
      protocol::ResolveRequest{
          {"elementwise", "packed", {{"n", "2^24"}, {"dtype", "f16"}, {"block_size", "128"}}}}});
  auto reply = worker.output().waitFor(WorkerHarness::is("resolved", "q"));
  ASSERT_FALSE(reply.is_null());
  EXPECT_EQ(reply["bytes"], 2 * 2 * (1 << 24));  // one f16 input read, one output written
  EXPECT_EQ(reply["derived"]["pack_size_used"], "8");
  EXPECT_EQ(reply["derived"]["block"], "128");
  EXPECT_FALSE(reply["device"].get<std::string>().empty());
}

TEST_F(CliGpu, WorkerStreamsProgressResultsAndDone) {
  RunStore store(dir.file("h.sqlite"));
  WorkerHarness worker(&store);
  MeasureSettings hot;
  hot.mode = "hot";
  hot.budget = 0.05;
  worker.send(
      protocol::Request{"r1", protocol::RunRequest{{"copy", "vectorized", {{"n", "2^22"}}}, hot}});
  std::size_t from = 0;
  const json progress = worker.output().waitFor(WorkerHarness::is("progress", "r1"), &from);
  ASSERT_FALSE(progress.is_null());
  const json result = worker.output().waitFor(WorkerHarness::is("result", "r1"), &from);
  ASSERT_FALSE(result.is_null());
  EXPECT_EQ(result["run"]["status"], "ok");
  EXPECT_EQ(result["run"]["mode"], "hot");
  EXPECT_TRUE(result["run"]["verification"]["passed"].get<bool>());
  EXPECT_GT(result["run"]["ceiling_fraction"].get<double>(), 0);
  const std::int64_t runId = result["run_id"].get<std::int64_t>();
  const json done = worker.output().waitFor(WorkerHarness::is("done", "r1"), &from);
  ASSERT_FALSE(done.is_null());
  EXPECT_EQ(done["completed"], 1);
  EXPECT_EQ(done["cancelled"], false);
  EXPECT_EQ(worker.finish(), 0);
  EXPECT_TRUE(store.run(runId));
}

// A pooled worker keeps no history: given its GPU's ceiling, it runs against that one at once,
// with no "measuring the copy ceiling" first (a second of 1 GiB copies).
TEST_F(CliGpu, AWorkerGivenItsCeilingMeasuresNone) {
  WorkerHarness worker;
  MeasureSettings hot;
  hot.mode = "hot";
  hot.budget = 0.05;
  hot.copyCeiling = CopyCeiling{1e15, 1u << 30, "vectorized", 1};
  worker.send(
      protocol::Request{"r1", protocol::RunRequest{{"copy", "vectorized", {{"n", "2^22"}}}, hot}});
  const json result = worker.output().waitFor(WorkerHarness::is("result", "r1"));
  ASSERT_FALSE(result.is_null());
  EXPECT_EQ(result["run"]["ceiling_bandwidth"], 1e15);
  for (const std::string& line : worker.output().lines())
    EXPECT_EQ(line.find("copy ceiling"), std::string::npos) << line;
  EXPECT_EQ(worker.finish(), 0);
}

TEST_F(CliGpu, WorkerCancelStopsASweepAndKeepsWhatFinished) {
  RunStore store(dir.file("h.sqlite"));
  WorkerHarness worker(&store);
  MeasureSettings brief;
  brief.budget = 0.2;
  worker.send(protocol::Request{
      "s1",
      protocol::SweepRequest{{"copy", "vectorized", {{"n", "2^24"}}}, {"waves=1:64"}, brief}});
  worker.send(protocol::Request{"queued", protocol::RunRequest{{"copy", "memcpy", {}}, {}}});
  std::size_t from = 0;
  ASSERT_FALSE(worker.output().waitFor(WorkerHarness::is("result", "s1"), &from).is_null());
  worker.send(protocol::Request{"c1", protocol::CancelRequest{"s1"}});
  const json done = worker.output().waitFor(WorkerHarness::is("done", "s1"), &from);
  ASSERT_FALSE(done.is_null());
  EXPECT_TRUE(done["cancelled"].get<bool>());
  const auto completed = done["completed"].get<std::size_t>();
  EXPECT_GE(completed, 1u);
  EXPECT_LT(completed, 64u);
  EXPECT_EQ(store.count({}), completed);
  // The queued job then runs normally.
  EXPECT_FALSE(worker.output().waitFor(WorkerHarness::is("done", "queued")).is_null());
}

}  // namespace
}  // namespace kwb
