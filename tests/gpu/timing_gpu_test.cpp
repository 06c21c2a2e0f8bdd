#include <gtest/gtest.h>

#include <chrono>

#include "core/error.h"
#include "core/metricrollup.h"
#include "core/stats.h"
#include "gpu/spinkernel.h"
#include "kernels/cudacheck.h"
#include "kernels/registry.h"
#include "measure/devicequery.h"
#include "measure/runner.h"
#include "measure/timer.h"

namespace kwb {
namespace {

class TimingGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    KWB_CUDA_CHECK(cudaStreamCreate(&stream));
    timer = std::make_unique<Timer>(stream, queryDevice(0).l2Bytes);
  }
  void TearDown() override {
    timer.reset();
    cudaStreamDestroy(stream);
  }
  Summary timeSpin(std::uint64_t ns, TimingMode mode) {
    TimingOptions options;
    options.mode = mode;
    options.budgetSeconds = 0.2;
    auto outcome = timer->measure([ns](cudaStream_t s) { testing::launchSpin(ns, s); }, options);
    return summarize(outcome.samples);
  }
  cudaStream_t stream = nullptr;
  std::unique_ptr<Timer> timer;
};

// The events' own time is subtracted; what is left of the launch latency is well under a
// microsecond, and the scale must be exact.
TEST_F(TimingGpu, MeasuresAKernelOfKnownDuration) {
  const Summary shortSpin = timeSpin(20'000, TimingMode::Hot);
  const Summary longSpin = timeSpin(1'000'000, TimingMode::Hot);
  for (const auto& [s, nominal] : {std::pair{shortSpin, 20e-6}, std::pair{longSpin, 1e-3}}) {
    EXPECT_GE(s.count, 10u);
    EXPECT_GE(s.median, nominal) << "faster than the clock allows";
    EXPECT_LT(s.median - nominal, 5e-6) << "overhead of " << (s.median - nominal) * 1e6 << " us";
    EXPECT_LE(s.min, s.median);
    EXPECT_LE(s.median, s.max);
  }
  EXPECT_NEAR(longSpin.median - shortSpin.median, 980e-6, 980e-6 * 0.02);
}

// With the stream held back while the batch is enqueued, tiny kernels run back to back and the
// events see the kernel, not the host's launch gaps.
TEST_F(TimingGpu, TinyKernelsAreNotInflatedByLaunchGaps) {
  const Summary s = timeSpin(2'000, TimingMode::Hot);
  EXPECT_LT(s.median, 6e-6);
}

TEST_F(TimingGpu, StopsEarlyWhenSteadyAndWithinTheBudget) {
  TimingOptions options;
  options.mode = TimingMode::Hot;
  options.budgetSeconds = 0.3;
  options.maxSamples = 100000;
  options.targetRelStddev = 1e-9;  // never reached: the budget must stop it
  const auto start = std::chrono::steady_clock::now();
  auto outcome = timer->measure([](cudaStream_t s) { testing::launchSpin(50'000, s); }, options);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_FALSE(outcome.converged);
  EXPECT_LT(wall, 0.3 + 0.2);
  EXPECT_GT(outcome.samples.size(), 100u);

  options.targetRelStddev = 0.05;  // a spin kernel is steadier than this
  outcome = timer->measure([](cudaStream_t s) { testing::launchSpin(50'000, s); }, options);
  EXPECT_TRUE(outcome.converged);
  EXPECT_GE(outcome.samples.size(), 10u);
  EXPECT_LT(outcome.samples.size(), 100u);
}

TEST_F(TimingGpu, ColdSamplesMissTheL2) {
  // 2 x 8 MiB fits in L2: hot copies run from cache, cold ones from DRAM.
  Runner runner(0);
  auto run = [&](TimingMode mode) {
    RunRequest request;
    request.family = "copy";
    request.variant = "vectorized";
    request.params = Registry::instance().resolve("copy", "vectorized", {{"n", "2^21"}});
    request.timing.mode = mode;
    request.timing.budgetSeconds = 0.2;
    return runner.run(request);
  };
  const RunResult cold = run(TimingMode::Cold);
  const RunResult hot = run(TimingMode::Hot);
  ASSERT_EQ(cold.status, RunStatus::Ok);
  ASSERT_EQ(hot.status, RunStatus::Ok);
  EXPECT_LT(hot.stats.median, 0.9 * cold.stats.median)
      << "hot " << hot.stats.median << " s, cold " << cold.stats.median << " s";
}

// A 50 us kernel, cold: the event median (the empty event pair subtracted, L2 left without dirty
// lines) within 3 % of the GPU's own start and end of the kernel, as CUPTI traces them.
TEST_F(TimingGpu, EventTimesAgreeWithTracedKernelTimes) {
  Runner runner(0);
  RunRequest request;
  request.family = "copy";
  request.variant = "vectorized";
  request.params = Registry::instance().resolve("copy", "vectorized", {{"n", "2^24"}});
  request.timing.budgetSeconds = 0.3;
  const RunResult run = runner.run(request);
  ASSERT_EQ(run.status, RunStatus::Ok) << run.error;
  const Metric* traced = run.metric(kActivityMedian);
  if (!traced) GTEST_SKIP() << "no CUPTI activity trace here: " << run.notice;
  EXPECT_EQ(run.flush, L2Flush::WriteRead);
  EXPECT_GT(run.eventOverhead, 0.2e-6);
  EXPECT_LT(run.eventOverhead, 5e-6);
  EXPECT_GT(traced->value, 30e-6) << "not the 50 us kernel the bound is for";
  EXPECT_NEAR(run.stats.median / traced->value, 1.0, 0.03)
      << "event median " << run.stats.median * 1e6 << " us, traced " << traced->value * 1e6
      << " us, event pair " << run.eventOverhead * 1e6 << " us";
}

TEST_F(TimingGpu, BiggerCopiesTakeProportionallyLonger) {
  Runner runner(0);
  auto median = [&](const char* n) {
    RunRequest request;
    request.family = "copy";
    request.variant = "memcpy";
    request.params = Registry::instance().resolve("copy", "memcpy", {{"n", n}});
    request.timing.budgetSeconds = 0.2;
    return runner.run(request).stats.median;
  };
  const double ratio = median("2^28") / median("2^26");
  EXPECT_GT(ratio, 3.6);
  EXPECT_LT(ratio, 4.4);
}

// The probe runs after each batch; a throttled reading flags every sample of that batch.
TEST_F(TimingGpu, ThrottledBatchesFlagTheirSamples) {
  TimingOptions options;
  options.mode = TimingMode::Hot;
  options.minSamples = 96;  // three full batches of 32
  options.maxSamples = 96;
  int batch = 0;
  const auto outcome = timer->measure([](cudaStream_t s) { testing::launchSpin(2'000, s); },
                                      options, nullptr, [&] { return ++batch == 2; });
  ASSERT_EQ(outcome.samples.size(), 96u);
  EXPECT_EQ(batch, 3);
  ASSERT_EQ(outcome.throttledSamples.size(), 32u);
  EXPECT_EQ(outcome.throttledSamples.front(), 32u);
  EXPECT_EQ(outcome.throttledSamples.back(), 63u);
}

TEST_F(TimingGpu, CancelStopsBetweenBatches) {
  std::atomic<bool> cancel{true};
  TimingOptions options;
  EXPECT_THROW(
      timer->measure([](cudaStream_t s) { testing::launchSpin(1000, s); }, options, &cancel),
      Error);
}

}  // namespace
}  // namespace kwb
