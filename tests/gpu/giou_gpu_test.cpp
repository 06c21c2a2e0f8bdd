#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/metricrollup.h"
#include "gpu/familygpu.h"
#include "kernels/cudacheck.h"
#include "kernels/giou/gioufused.h"
#include "kernels/registry.h"
#include "measure/runner.h"

namespace kwb {
namespace {

class GiouGpu : public testing::FamilyGpu {
 protected:
  RunResult run(const std::string& variant, const RawParams& params, bool verifyOnly = true) {
    return runVariant("giou", variant, params, verifyOnly);
  }

  // Runs and expects the loss (and gradient) to match the CPU reference.
  void expectMatches(const std::string& variant, const RawParams& params) {
    const RunResult r = run(variant, params);
    std::string text;
    for (const auto& [k, v] : params) text += k + "=" + v + " ";
    ASSERT_EQ(r.status, RunStatus::Ok) << variant << " " << text << ": " << r.error;
    EXPECT_TRUE(r.verification.passed);
  }
};

const char* const kVariants[] = {"per_sample",        "concat",       "padded", "fused",
                                 "fused_conditional", "fused_fwd_bwd"};

// M = 45: no multiple of 32; B = 37 samples, uniform counts so that some are full, some empty.
TEST_F(GiouGpu, EveryVariantMatchesTheReferenceInEveryType) {
  int checked = 0;
  for (const char* variant : kVariants)
    for (const char* dtype : {"f32", "bf16", "f16"})
      for (const char* target : {"u8", "f32"})
        for (const char* validity : {"y2", "counts"})
          for (const char* loss : {"sum_giou", "mean_1_minus_giou"}) {
            expectMatches(variant, {{"batch", "37"},
                                    {"boxes", "45"},
                                    {"valid", "uniform"},
                                    {"dtype", dtype},
                                    {"target_dtype", target},
                                    {"validity", validity},
                                    {"loss", loss}});
            ++checked;
          }
  EXPECT_EQ(checked, 6 * 3 * 2 * 2 * 2);
}

TEST_F(GiouGpu, GraphsMatchTheReference) {
  for (const char* variant : {"per_sample", "concat", "padded"})
    for (const char* validity : {"y2", "counts"})
      expectMatches(variant, {{"batch", "33"},
                              {"boxes", "20"},
                              {"valid", "uniform"},
                              {"validity", validity},
                              {"graph", "on"}});
}

TEST_F(GiouGpu, EdgeCases) {
  const RawParams cases[] = {
      {{"batch", "50"}, {"boxes", "40"}, {"valid", "constant"}, {"valid_count", "0"}},
      {{"batch", "50"}, {"boxes", "40"}, {"valid", "constant"}, {"valid_count", "40"}},
      {{"batch", "64"}, {"boxes", "33"}, {"valid", "uniform"}, {"zero_area", "50"}},
      {{"batch", "64"}, {"boxes", "33"}, {"valid", "uniform"}, {"zero_area", "100"}},
      {{"batch", "1"}, {"boxes", "300"}, {"valid", "uniform"}},
      {{"batch", "1"}, {"boxes", "1"}, {"valid", "constant"}, {"valid_count", "1"}},
      {{"batch", "3"}, {"boxes", "7"}, {"epsilon", "1e-3"}, {"loss", "mean_1_minus_giou"}},
  };
  for (const auto& params : cases)
    for (const char* variant : kVariants)
      for (const char* dtype : {"f32", "f16"}) {
        RawParams p = params;
        p["dtype"] = dtype;
        expectMatches(variant, p);
      }
}

TEST_F(GiouGpu, BenchmarkShapesAndEveryLaunchShape) {
  for (const char* shape : {"1024,256", "4096,64"}) {
    const std::string s = shape;
    const std::string batch = s.substr(0, s.find(',')), boxes = s.substr(s.find(',') + 1);
    for (const char* variant : kVariants)
      expectMatches(variant, {{"batch", batch}, {"boxes", boxes}});
    for (const char* variant : {"fused", "fused_conditional", "fused_fwd_bwd"})
      for (const char* perThread : {"2", "5", "16"})
        for (const char* block : {"64", "512"})
          expectMatches(variant, {{"batch", batch},
                                  {"boxes", boxes},
                                  {"boxes_per_thread", perThread},
                                  {"block_size", block}});
  }
}

// fused_fwd_bwd keeps the validity of a thread's first 64 boxes from its count and reads the
// rest's targets again; blocks whose boxes are all kept take a pass of their own. In blocks of
// 1024 (one an SM at 64 registers), 2^24 boxes give each thread 16 boxes in each of 8 or more
// chunks; in blocks of 256 (4 an SM), 2376 chunks of 4096 boxes give a GPU of 132 SMs blocks of
// 4 chunks, all kept, and of 5, not.
TEST_F(GiouGpu, ForwardBackwardPastTheKeptValidity) {
  for (const auto& [batch, block] : {std::pair{"65536", "1024"}, std::pair{"38016", "256"}})
    expectMatches("fused_fwd_bwd", {{"batch", batch},
                                    {"boxes", "256"},
                                    {"valid", "uniform"},
                                    {"boxes_per_thread", "16"},
                                    {"block_size", block}});
}

// Blocks of 1024 in every type: the plain kernel's ring takes 48 KiB of shared memory and more,
// past what a block gets without opting in once the block reduction's own is counted.
TEST_F(GiouGpu, LargeBlocksInEveryType) {
  for (const char* dtype : {"f32", "bf16", "f16"})
    for (const char* target : {"u8", "f32"})
      for (const char* variant : {"fused", "fused_conditional", "fused_fwd_bwd"}) {
        try {
          expectMatches(variant, {{"batch", "300"},
                                  {"boxes", "100"},
                                  {"valid", "uniform"},
                                  {"block_size", "1024"},
                                  {"dtype", dtype},
                                  {"target_dtype", target}});
        } catch (const Error& e) {  // past a kernel's registers: refused, as the test below says
          EXPECT_EQ(e.param(), "block_size") << variant << ": " << e.what();
        }
      }
}

// A block too large for a kernel's registers is rejected before launch, never a failed launch.
TEST_F(GiouGpu, BlocksPastTheRegistersAreRejected) {
  for (const char* variant : {"fused", "fused_conditional", "fused_fwd_bwd"}) {
    try {
      const RunResult r = run(variant, {{"block_size", "1024"}});
      EXPECT_EQ(r.status, RunStatus::Ok) << variant << ": " << r.error;
    } catch (const Error& e) {
      EXPECT_EQ(e.param(), "block_size") << variant << ": " << e.what();
    }
  }
}

TEST_F(GiouGpu, GraphsReplayTheSameChain) {
  for (const char* variant : {"per_sample", "concat", "padded"}) {
    const RunResult r =
        run(variant, {{"batch", "40"}, {"boxes", "64"}, {"graph", "on"}, {"dtype", "bf16"}}, false);
    ASSERT_EQ(r.status, RunStatus::Ok) << variant << ": " << r.error;
    const Metric* launches = r.metric(kHostLaunches);
    ASSERT_NE(launches, nullptr);
    EXPECT_EQ(launches->value, 1.0) << variant;
  }
}

// The kernels the workload says a call runs are the kernels the activity trace sees.
TEST_F(GiouGpu, DeclaredKernelsPerCallAreWhatRuns) {
  for (const char* variant : kVariants) {
    for (const char* graph : {"off", "on"}) {
      RawParams params{{"batch", "30"}, {"boxes", "16"}, {"dtype", "f16"}};
      if (std::string(graph) == "on") {
        if (std::string(variant).rfind("fused", 0) == 0) continue;
        params["graph"] = graph;
      }
      const RunResult r = run(variant, params, false);
      ASSERT_EQ(r.status, RunStatus::Ok) << variant << ": " << r.error;
      const Metric* traced = r.metric(kActivityKernels);
      if (!traced) GTEST_SKIP() << "no kernel trace here: " << r.notice;
      EXPECT_EQ(std::to_string(static_cast<int>(traced->value)), r.derived.get("kernels_per_call"))
          << variant << " graph=" << graph;
      EXPECT_NE(r.metric(kHostWall), nullptr);
    }
  }
}

// The blocks that complete the totals zero them, so each call of a launch forms its own loss (a
// timed run's later calls are never checked against the reference): calls alternate between two
// sets of targets and each gives its set's loss, bit for bit. Launches of 34 and of 200 blocks,
// many calls: the blocks that complete the sum and the count are not always the same one.
TEST(GiouFusedGpu, EveryCallFormsItsOwnLoss) {
  constexpr int kBatch = 64, kBoxes = 100, kTotal = kBatch * kBoxes;
  std::vector<float> preds(4 * kTotal);
  std::vector<std::uint8_t> targets[2] = {std::vector<std::uint8_t>(4 * kTotal),
                                          std::vector<std::uint8_t>(4 * kTotal)};
  for (int i = 0; i < kTotal; ++i) {
    const float x = static_cast<float>(i % 50), y = static_cast<float>(i * 7 % 50);
    std::copy_n(std::begin({x, y, x + 5 + static_cast<float>(i % 3), y + 4}), 4, &preds[4 * i]);
    for (int set = 0; set < 2; ++set) {
      const auto tx = static_cast<std::uint8_t>(i * 3 % 40);
      const auto ty = static_cast<std::uint8_t>(i * 5 % 40);
      // Padding (y2 = 0) at every fifth target of one set and every third of the other.
      const auto ty2 = static_cast<std::uint8_t>(i % (set == 0 ? 5 : 3) == 0 ? 0 : ty + 8);
      std::copy_n(std::begin({tx, ty, static_cast<std::uint8_t>(tx + 10), ty2}), 4,
                  &targets[set][4 * i]);
    }
  }
  void *dPreds, *dGrad, *dTotals, *dTargets[2];
  float* dLoss;
  KWB_CUDA_CHECK(cudaMalloc(&dPreds, preds.size() * sizeof(float)));
  KWB_CUDA_CHECK(cudaMalloc(&dGrad, preds.size() * sizeof(float)));
  KWB_CUDA_CHECK(cudaMalloc(&dTotals, sizeof(giou::LossTotals)));
  KWB_CUDA_CHECK(cudaMalloc(&dLoss, sizeof(float)));
  KWB_CUDA_CHECK(
      cudaMemcpy(dPreds, preds.data(), preds.size() * sizeof(float), cudaMemcpyHostToDevice));
  for (int set = 0; set < 2; ++set) {
    KWB_CUDA_CHECK(cudaMalloc(&dTargets[set], targets[set].size()));
    KWB_CUDA_CHECK(cudaMemcpy(dTargets[set], targets[set].data(), targets[set].size(),
                              cudaMemcpyHostToDevice));
  }
  KWB_CUDA_CHECK(cudaMemset(dTotals, 0, sizeof(giou::LossTotals)));
  for (auto kind :
       {giou::FusedKind::Plain, giou::FusedKind::Conditional, giou::FusedKind::ForwardBackward})
    for (const int block : {64, 32}) {
      giou::FusedLaunch l;
      l.kind = kind;
      l.batch = kBatch;
      l.boxes = kBoxes;
      l.block = block;
      l.boxesPerThread = block == 64 ? 3 : 1;
      l.grid = static_cast<int>(l.chunks());  // 34 or 200 blocks adding to the totals
      l.preds = dPreds;
      l.grad = dGrad;
      l.loss = dLoss;
      l.totals = static_cast<giou::LossTotals*>(dTotals);
      std::vector<float> losses;
      for (int call = 0; call < 40; ++call) {
        l.targets = dTargets[call % 2];
        KWB_CUDA_CHECK(cudaMemset(dLoss, 0xff, sizeof(float)));  // a NaN unless the call writes it
        giou::launchFused(l, nullptr);
        float loss = 0;
        KWB_CUDA_CHECK(cudaMemcpy(&loss, dLoss, sizeof loss, cudaMemcpyDeviceToHost));
        losses.push_back(loss);
      }
      EXPECT_NE(losses[0], losses[1]) << static_cast<int>(kind);
      for (int call = 0; call < 40; ++call)
        EXPECT_EQ(losses[call], losses[call % 2])
            << static_cast<int>(kind) << " blocks of " << block << " call " << call;
    }
  for (void* p : {dPreds, dGrad, dTotals, dTargets[0], dTargets[1], static_cast<void*>(dLoss)})
    cudaFree(p);
}

}  // namespace
}  // namespace kwb
