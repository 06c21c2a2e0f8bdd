// Hardware counters, kernel durations and GPU state on a real GPU. Where the counters cannot be
// read (no permission, another profiler) the counter tests report themselves skipped.
#include <cstdio>

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/metricrollup.h"
#include "gpu/metrickernels.h"
#include "kernels/cudacheck.h"
#include "kernels/registry.h"
#include "measure/devicebuffer.h"
#include "measure/devicequery.h"
#include "measure/kernelprofiler.h"
#include "measure/runner.h"

namespace kwb {
namespace {

constexpr int kBlocks = 1024;

class MetricsGpu : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    KWB_CUDA_CHECK(cudaSetDevice(0));
    device = new DeviceInfo(queryDevice(0));
    profiler = makeKernelProfiler(*device).release();
  }
  static void TearDownTestSuite() {
    delete profiler;
    delete device;
  }

  // The run-level value of `name` after one call of `launch`; skips the test when counters
  // cannot be read here.
  double counter(const std::string& set, const std::string& name,
                 const std::function<void()>& launch) {
    const ProfileOutcome outcome = profiler->counters(planMetrics(set), launch);
    if (!outcome.unavailable.empty()) {
      skipped = outcome.unavailable;
      return 0;
    }
    for (const auto& m : outcome.metrics)
      if (m.name == name && m.kernel.empty()) return m.value;
    ADD_FAILURE() << name << " missing from the " << set << " set's results";
    return 0;
  }

  static inline DeviceInfo* device = nullptr;
  static inline KernelProfiler* profiler = nullptr;
  DeviceBuffer out{kBlocks * 256 * sizeof(float)};
  std::string skipped;
};

TEST_F(MetricsGpu, DivergenceLowersActiveThreadsPerInstruction) {
  constexpr const char* kRatio = "smsp__thread_inst_executed_per_inst_executed.ratio";
  float* data = static_cast<float*>(out.data());
  const double uniform =
      counter("divergence", kRatio, [&] { testing::launchUniform(data, kBlocks, nullptr); });
  const double divergent =
      counter("divergence", kRatio, [&] { testing::launchDivergent(data, kBlocks, nullptr); });
  if (!skipped.empty()) GTEST_SKIP() << skipped;
  std::printf("active threads per warp instruction: uniform %.2f, divergent %.2f\n", uniform,
              divergent);
  EXPECT_GT(uniform, 31.5);
  EXPECT_LT(divergent, 8.0);  // one lane in 32 runs the loop, which dominates the count
}

// The flops set counts what the kernel executed: the uniform kernel's 256 steps of x * a + b are
// one FFMA each per thread, and the divergent one runs them in one lane of 32.
TEST_F(MetricsGpu, TheFlopsSetCountsTheFmasExecuted) {
  constexpr const char* kFma = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum";
  float* data = static_cast<float*>(out.data());
  const double uniform =
      counter("flops", kFma, [&] { testing::launchUniform(data, kBlocks, nullptr); });
  const double divergent =
      counter("flops", kFma, [&] { testing::launchDivergent(data, kBlocks, nullptr); });
  if (!skipped.empty()) GTEST_SKIP() << skipped;
  const double threads = kBlocks * 256.0;
  std::printf("FFMA executed: uniform %.0f, divergent %.0f\n", uniform, divergent);
  EXPECT_NEAR(uniform, threads * 256, threads * 256 * 0.01);
  EXPECT_NEAR(divergent, threads / 32 * 256, threads / 32 * 256 * 0.01);
}

TEST_F(MetricsGpu, BankConflictsFollowTheStride) {
  constexpr const char* kLoads = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
  constexpr const char* kStores = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
  float* data = static_cast<float*>(out.data());
  const auto conflicts = [&](const char* name, int stride) {
    return counter("shared", name,
                   [&] { testing::launchSharedStride(data, kBlocks, stride, nullptr); });
  };
  const double loads1 = conflicts(kLoads, 1), loads32 = conflicts(kLoads, 32);
  const double loads33 = conflicts(kLoads, 33), stores32 = conflicts(kStores, 32);
  const double stores1 = conflicts(kStores, 1);
  if (!skipped.empty()) GTEST_SKIP() << skipped;
  std::printf(
      "bank conflicts (loads, stores): stride 1 %.0f %.0f, stride 32 %.0f %.0f, "
      "stride 33 %.0f\n",
      loads1, stores1, loads32, stores32, loads33);
  // 32 lanes in one bank: 31 extra wavefronts per access, 32 accesses per warp and 8 warps
  // per block.
  const double perfect = 31.0 * 32 * 8 * kBlocks;
  EXPECT_GT(loads32, 0.5 * perfect);
  EXPECT_GT(stores32, 0.5 * perfect);
  EXPECT_LT(loads1, 0.01 * perfect);
  EXPECT_LT(loads33, 0.01 * perfect);
  EXPECT_LT(stores1, 0.01 * perfect);
}

TEST_F(MetricsGpu, OccupancyHasTheoreticalAndAchievedValues) {
  const ProfileOutcome outcome = profiler->counters(planMetrics("occupancy"), [&] {
    testing::launchUniform(static_cast<float*>(out.data()), kBlocks, nullptr);
  });
  if (!outcome.unavailable.empty()) GTEST_SKIP() << outcome.unavailable;
  bool theoretical = false, achieved = false;
  for (const auto& m : outcome.metrics) {
    if (m.name == kTheoreticalOccupancy && m.kernel == "uniformKernel") {
      theoretical = true;
      EXPECT_DOUBLE_EQ(m.value, 100.0);  // 256 threads, few registers, no shared memory
    }
    if (m.name == "sm__warps_active.avg.pct_of_peak_sustained_active" && m.kernel.empty()) {
      achieved = true;
      EXPECT_GT(m.value, 10.0);
      EXPECT_LE(m.value, 100.0);
    }
  }
  EXPECT_TRUE(theoretical && achieved);
}

// A call that launches two kernels: one range each, named in launch order, the run's counters
// their sum and its ratio formed from the summed parts.
TEST_F(MetricsGpu, EachKernelOfACallKeepsItsOwnValues) {
  float* data = static_cast<float*>(out.data());
  const ProfileOutcome outcome = profiler->counters(planMetrics("divergence"), [&] {
    testing::launchUniform(data, kBlocks, nullptr);
    testing::launchDivergent(data, kBlocks, nullptr);
  });
  if (!outcome.unavailable.empty()) GTEST_SKIP() << outcome.unavailable;
  const auto value = [&](const std::string& name, const std::string& kernel) {
    for (const auto& m : outcome.metrics)
      if (m.name == name && m.kernel == kernel) return m.value;
    ADD_FAILURE() << name << " [" << kernel << "] missing";
    return 0.0;
  };
  constexpr const char* kInstructions = "smsp__inst_executed.sum";
  EXPECT_DOUBLE_EQ(value(kInstructions, ""),
                   value(kInstructions, "uniformKernel") + value(kInstructions, "divergentKernel"));
  constexpr const char* kRatio = "smsp__thread_inst_executed_per_inst_executed.ratio";
  EXPECT_GT(value(kRatio, "uniformKernel"), 31.5);
  EXPECT_LT(value(kRatio, "divergentKernel"), 8.0);
  const double run = value(kRatio, "");
  EXPECT_GT(run, value(kRatio, "divergentKernel"));
  EXPECT_LT(run, value(kRatio, "uniformKernel"));
}

TEST_F(MetricsGpu, UnknownMetricNamesAreRejectedBeforeRunning) {
  try {
    profiler->check(planMetrics("dram__bytes_read.sum,dram__no_such_metric.sum"));
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::Param);
    EXPECT_NE(std::string(error.what()).find("dram__no_such_metric.sum"), std::string::npos);
    return;
  }
  // Without CUPTI there is nothing to check names against.
  GTEST_SKIP() << "this build or machine cannot check metric names";
}

TEST_F(MetricsGpu, ActivityRecordsNameAndTimeEachKernel) {
  const ProfileOutcome outcome = profiler->durations(
      [&] { testing::launchUniform(static_cast<float*>(out.data()), kBlocks, nullptr); }, 5, "");
  if (!outcome.unavailable.empty()) GTEST_SKIP() << outcome.unavailable;
  const Metric* kernel = nullptr;
  for (const auto& m : outcome.metrics)
    if (m.name == kActivityMedian && m.kernel == "uniformKernel") kernel = &m;
  ASSERT_NE(kernel, nullptr);
  EXPECT_GT(kernel->value, 1e-7);
  EXPECT_LT(kernel->value, 1e-2);
}

// A whole run: DRAM bytes as the copy must move them, the traced duration beside the event
// median, and a GPU state reading for every timing batch.
TEST(RunnerMetricsGpu, CopyRunCarriesMetricsDurationsAndState) {
  Runner runner(0);
  RunRequest request;
  request.family = "copy";
  request.variant = "vectorized";
  request.params = Registry::instance().resolve("copy", "vectorized", {{"n", "2^24"}});
  request.timing.budgetSeconds = 0.05;
  request.metrics = planMetrics("memory");
  const RunResult r = runner.run(request);
  ASSERT_EQ(r.status, RunStatus::Ok) << r.error;

  const Metric* state = r.metric("gpu.state_samples");
  ASSERT_NE(state, nullptr);
  EXPECT_GE(state->value, 2);
  const Metric* traced = r.metric(kActivityMedian);
  if (!traced && !r.notice.empty()) GTEST_SKIP() << r.notice;  // under another CUPTI client
  ASSERT_NE(traced, nullptr);
  EXPECT_GT(traced->value, 0.5 * r.stats.median);
  EXPECT_LT(traced->value, 1.05 * r.stats.median);  // events add launch overhead, never less

  if (!r.notice.empty()) GTEST_SKIP() << r.notice;
  const Metric* read = r.metric("dram__bytes_read.sum");
  const Metric* written = r.metric("dram__bytes_write.sum");
  ASSERT_TRUE(read && written);
  const double half = static_cast<double>(r.bytes) / 2;  // 64 MiB each way, far past L2
  EXPECT_NEAR(read->value, half, 0.05 * half);
  EXPECT_NEAR(written->value, half, 0.05 * half);
}

}  // namespace
}  // namespace kwb
