// Users' kernel files on the GPU: the examples that ship run and pass their checks, a wrong kernel
// fails its reference, compile errors come back as diagnostics, and kernels that fault or never
// end are failed runs of a process that ends, after which the next run works.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include "core/kerneltemplate.h"
#include "core/waves.h"
#include "db/runstore.h"
#include "db/testdb.h"
#include "kernels/registry.h"
#include "kernels/user/modulecache.h"
#include "kernels/user/uservariant.h"
#include "measure/runner.h"

namespace kwb {
namespace {

std::string example(const std::string& name) {
  return std::string(KWB_SOURCE_DIR) + "/examples/kernels/" + name;
}
std::string fixture(const std::string& name) {
  return std::string(KWB_SOURCE_DIR) + "/tests/fixtures/kernels/" + name;
}

class UserKernelGpu : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { runner = new Runner(0); }
  static void TearDownTestSuite() {
    delete runner;
    runner = nullptr;
  }

  static RunResult runFile(const std::string& path, const RawParams& params,
                           bool verifyOnly = true) {
    RunRequest request;
    request.kernel = std::make_shared<UserVariant>(readKernelFile(path));
    request.params = resolveFor(*request.kernel, params);
    request.verifyOnly = verifyOnly;
    request.timing.budgetSeconds = 0.05;
    return runner->run(request);
  }

  static inline Runner* runner = nullptr;
};

void expectPasses(const RunResult& r, const std::string& what) {
  EXPECT_EQ(r.status, RunStatus::Ok) << what << ": " << r.error;
  EXPECT_TRUE(r.verification.checked) << what;
  EXPECT_TRUE(r.verification.passed) << what << ": relative error " << r.verification.relError;
  ASSERT_TRUE(r.code.has_value()) << what;
  EXPECT_EQ(r.code->hash.size(), 64u);
}

TEST_F(UserKernelGpu, ExamplesPassTheirChecksAcrossTheirParameters) {
  expectPasses(runFile(example("copy_vectorized.cu"), {{"n", "1048579"}}), "copy n=2^20+3");
  expectPasses(runFile(example("saxpy.cu"), {{"n", "100003"}, {"UNROLL", "8"}}), "saxpy");
  expectPasses(runFile(example("transpose_naive.cu"), {{"shape", "1000,777"}}), "naive");
  // An odd count of f32, whose source the family pads to 8 bytes: the file declares the data.
  expectPasses(runFile(example("transpose_naive.cu"), {{"shape", "1001,777"}}), "naive, odd");
  for (const char* tile : {"16", "32", "64"})
    for (const char* pad : {"0", "1"})
      expectPasses(runFile(example("transpose_tiled.cu"),
                           {{"shape", "1000,777"}, {"TILE", tile}, {"ROWS", "4"}, {"PAD", pad}}),
                   std::string("tiled TILE=") + tile + " PAD=" + pad);
  // Sides that start inside 16-byte words, and a last row that ends inside one.
  for (const char* cols : {"32", "64", "128"})
    expectPasses(runFile(example("transpose_lines.cu"), {{"shape", "1031,389"}, {"COLS", cols}}),
                 std::string("lines COLS=") + cols);
  expectPasses(runFile(example("block_sum.cu"), {{"n", "1048581"}, {"block_size", "1024"}}),
               "block_sum");
  for (const char* work : {"1", "2", "4", "8"})
    expectPasses(
        runFile(example("matmul_tiled.cu"),
                {{"m", "256"}, {"n", "128"}, {"k", "192"}, {"TILE", "32"}, {"WORK", work}}),
        std::string("matmul WORK=") + work);
}

// The starting files `kwb new` and the exercises write are right as they are: the learner starts
// from a kernel that passes its check.
TEST_F(UserKernelGpu, EveryStartingFilePassesItsCheck) {
  for (const auto& name : kernelTemplateNames()) {
    RunRequest request;
    request.kernel =
        std::make_shared<UserVariant>(kernelFileOf(name + ".cu", kernelTemplate(name)));
    request.params = resolveFor(*request.kernel, {});
    request.verifyOnly = true;
    expectPasses(runner->run(request), name);
  }
}

TEST_F(UserKernelGpu, ARunCarriesItsFamilyItsNameAndWhatItDerived) {
  runFile(example("transpose_tiled.cu"), {});
  const RunResult r = runFile(example("transpose_tiled.cu"), {}, false);
  expectPasses(r, "tiled, timed");
  EXPECT_EQ(r.family, "permute");
  EXPECT_EQ(r.variant, "transpose_tiled");
  EXPECT_EQ(r.bytes, 2ull * 4096 * 4096 * 4);  // the family's count, as for the built-ins
  EXPECT_EQ(r.derived.get("block"), "256");
  EXPECT_EQ(r.derived.get("grid"), std::to_string(128 * 128));
  EXPECT_GT(r.stats.median, 0);
  EXPECT_EQ(r.derived.get("module"), "cached");  // compiled by the run before
  // The waves of its one launch, from the occupancy calculation: 256 threads and a 4 KiB tile
  // leave threads a limit on every GPU since Volta (registers may allow no more).
  const auto waves = waveLaunches(r, runner->device().smCount);
  ASSERT_EQ(waves.size(), 1u);
  EXPECT_EQ(waves[0].grid, 128 * 128);
  EXPECT_EQ(waves[0].residentPerSm, runner->device().maxThreadsPerSm / 256);
  EXPECT_EQ(waves[0].limiter.rfind("threads", 0), 0u) << waves[0].limiter;
  EXPECT_NEAR(std::stod(r.derived.get("wave_count")), waves[0].waves(), 0.005);
}

TEST_F(UserKernelGpu, AWrongKernelFailsAgainstItsReference) {
  const RunResult r = runFile(fixture("wrong.cu"), {});
  EXPECT_EQ(r.status, RunStatus::VerificationFailed);
  EXPECT_FALSE(r.verification.passed);
}

TEST_F(UserKernelGpu, RestrictionsOnTheDeviceNameTheParameter) {
  try {
    runFile(example("matmul_tiled.cu"),
            {{"m", "256"}, {"n", "256"}, {"k", "256"}, {"TILE", "64"}, {"WORK", "1"}});
    FAIL() << "64 x 64 threads accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.param(), "TILE") << e.what();
    EXPECT_NE(std::string(e.what()).find("max_threads_per_block"), std::string::npos) << e.what();
  }
}

TEST_F(UserKernelGpu, CompileErrorsComeBackWithTheirLine) {
  try {
    runFile(fixture("broken.cu"), {});
    FAIL() << "compiled";
  } catch (const CompileError& e) {
    ASSERT_FALSE(e.diagnostics().empty());
    EXPECT_EQ(e.diagnostics().front().line, 22);
    EXPECT_NE(std::string(e.what()).find("broken.cu:22:"), std::string::npos) << e.what();
  }
}

// The CLI in a process of its own: a fault or a hang ends it, never the test.
class UserKernelProcess : public ::testing::Test {
 protected:
  int kwb(const std::string& args) {
    const std::string command = std::string(KWB_EXECUTABLE) + " --db " + dir.file("h.sqlite") +
                                " " + args + " > " + dir.file("out.txt") + " 2>&1";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  RunRecord lastRun() {
    RunStore store(dir.file("h.sqlite"));
    HistoryFilter newest;
    newest.limit = 1;
    auto runs = store.query(newest);
    EXPECT_EQ(runs.size(), 1u);
    return runs.empty() ? RunRecord{} : runs.front();
  }
  testing::TempDir dir;
};

TEST_F(UserKernelProcess, AFaultIsAFailedRunAndTheNextRunWorks) {
  for (const char* how : {"0", "1"}) {
    EXPECT_NE(kwb("run " + fixture("fault.cu") + " HOW=" + how + " --budget 0.05"), 0);
    const RunRecord failed = lastRun();
    EXPECT_EQ(failed.result.status, RunStatus::Failed) << how;
    EXPECT_FALSE(failed.result.error.empty());
    ASSERT_TRUE(failed.result.code.has_value());
    EXPECT_EQ(kwb("run " + example("saxpy.cu") + " n=65536 --budget 0.05"), 0);
    EXPECT_EQ(lastRun().result.status, RunStatus::Ok);
  }
}

// Check memory: the off-by-one read no run notices, found on its line; a right kernel is clean.
TEST_F(UserKernelProcess, SanitizeFindsTheOffByOneOnItsLine) {
  const int code = kwb("run " + fixture("oob.cu") + " --sanitize");
  std::ifstream in(dir.file("out.txt"));
  const std::string out((std::istreambuf_iterator<char>(in)), {});
  if (code == 6) GTEST_SKIP() << "no compute-sanitizer here: " << out;
  EXPECT_EQ(code, 1) << out;
  EXPECT_NE(out.find("1 error"), std::string::npos) << out;
  EXPECT_NE(out.find("oob.cu:31: Invalid __global__ read of size 4 bytes"), std::string::npos)
      << out;
  EXPECT_EQ(kwb("run " + example("saxpy.cu") + " n=1000 --sanitize"), 0);
}

TEST_F(UserKernelProcess, AHangIsAFailedRunOfAProcessThatEnds) {
  const auto start = std::chrono::steady_clock::now();
  EXPECT_NE(kwb("run " + fixture("hang.cu") + " --hang-after 2"), 0);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 60);
  const RunRecord failed = lastRun();
  EXPECT_EQ(failed.result.status, RunStatus::Failed);
  EXPECT_NE(failed.result.error.find("did not finish within 2 s"), std::string::npos)
      << failed.result.error;
  EXPECT_EQ(kwb("run " + example("saxpy.cu") + " n=65536 --budget 0.05"), 0);
  EXPECT_EQ(lastRun().result.status, RunStatus::Ok);
}

}  // namespace
}  // namespace kwb
