#include <gtest/gtest.h>

#include "core/error.h"
#include "gpu/familygpu.h"
#include "kernels/registry.h"
#include "measure/runner.h"

namespace kwb {
namespace {

class CopyGpu : public testing::FamilyGpu {
 protected:
  RunResult run(const std::string& variant, const RawParams& params) {
    return runVariant("copy", variant, params, false, 0.01);
  }
};

// Sizes with tails of every length a 16-byte vector can leave, in every element type.
TEST_F(CopyGpu, EveryVariantCopiesEveryBitAtEverySize) {
  const std::vector<std::string> sizes{"1", "31", "1000003", std::to_string((1 << 20) + 3)};
  for (const char* dtype : {"u8", "f16", "bf16", "f32", "f64"}) {
    for (const auto& n : sizes) {
      RunResult memcpy = run("memcpy", {{"n", n}, {"dtype", dtype}});
      EXPECT_EQ(memcpy.status, RunStatus::Ok) << dtype << " n=" << n << ": " << memcpy.error;
      EXPECT_TRUE(memcpy.verification.checked && memcpy.verification.passed);
      for (const char* vectorBytes : {"1", "2", "4", "8", "16"}) {
        RawParams params{{"n", n}, {"dtype", dtype}, {"vector_bytes", vectorBytes}};
        try {
          Registry::instance().resolve("copy", "vectorized", params);
        } catch (const Error&) {
          continue;  // a vector smaller than one element
        }
        for (const char* waves : {"1", "32"}) {
          params["waves"] = waves;
          RunResult r = run("vectorized", params);
          EXPECT_EQ(r.status, RunStatus::Ok)
              << dtype << " n=" << n << " v=" << vectorBytes << ": " << r.error;
          EXPECT_TRUE(r.verification.passed) << dtype << " n=" << n << " v=" << vectorBytes;
          EXPECT_EQ(r.verification.relError, 0.0);
        }
      }
    }
  }
}

TEST_F(CopyGpu, ResultsCarryEverythingARunNeeds) {
  RunResult r = run("vectorized", {{"n", "2^22"}, {"block_size", "128"}});
  ASSERT_EQ(r.status, RunStatus::Ok) << r.error;
  EXPECT_EQ(r.bytes, 2u * 4u * (1u << 22));
  EXPECT_GE(r.stats.count, 10u);
  EXPECT_EQ(r.samples.size(), r.stats.count);
  EXPECT_LE(r.stats.min, r.stats.median);
  EXPECT_LE(r.stats.median, r.stats.max);
  EXPECT_NEAR(r.bandwidth, static_cast<double>(r.bytes) / r.stats.median, 1);
  EXPECT_EQ(r.problem.get("n"), std::to_string(1 << 22));
  EXPECT_EQ(r.launch.get("block_size"), "128");
  EXPECT_FALSE(r.problem.has("block_size"));
  EXPECT_EQ(r.derived.get("block"), "128");
  EXPECT_GT(r.derived.getInt("grid"), 0);
  EXPECT_EQ(r.deviceUuid, runner->device().uuid);
  EXPECT_GT(r.peakBandwidth, 0);
  EXPECT_GT(r.startedAt, 0);
}

TEST_F(CopyGpu, MoreMemoryThanTheDeviceHasIsAParameterError) {
  try {
    run("memcpy", {{"n", "2^34"}, {"dtype", "f64"}});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Param);
    EXPECT_EQ(e.param(), "n");
    EXPECT_NE(std::string(e.what()).find("GiB free"), std::string::npos) << e.what();
  }
  // The device is still usable afterwards.
  EXPECT_EQ(run("memcpy", {{"n", "1024"}}).status, RunStatus::Ok);
}

}  // namespace
}  // namespace kwb
