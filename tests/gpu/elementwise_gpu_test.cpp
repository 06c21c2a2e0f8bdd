#include <gtest/gtest.h>

#include "core/error.h"
#include "gpu/familygpu.h"
#include "kernels/registry.h"
#include "measure/runner.h"

namespace kwb {
namespace {

class ElementwiseGpu : public testing::FamilyGpu {
 protected:
  RunResult run(const std::string& variant, const RawParams& params, bool verifyOnly = true) {
    return runVariant("elementwise", variant, params, verifyOnly);
  }
  static bool accepted(const std::string& variant, const RawParams& params) {
    try {
      Registry::instance().resolve("elementwise", variant, params);
      return true;
    } catch (const Error&) {
      return false;
    }
  }
};

// Every variant x op x type at sizes with every tail length, aligned and misaligned.
TEST_F(ElementwiseGpu, EveryVariantOpAndTypeMatchesTheReference) {
  struct Types {
    const char* in;
    const char* out;
  };
  const std::vector<std::pair<const char*, Types>> cases{
      {"relu", {"f32", "same"}},       {"relu", {"f16", "same"}},
      {"relu", {"bf16", "same"}},      {"gelu", {"f32", "same"}},
      {"gelu", {"f16", "same"}},       {"gelu", {"bf16", "same"}},
      {"gelu_tanh", {"f32", "same"}},  {"gelu_tanh", {"f16", "same"}},
      {"gelu_tanh", {"bf16", "same"}}, {"silu", {"f32", "same"}},
      {"silu", {"f16", "same"}},       {"silu", {"bf16", "same"}},
      {"mul", {"f32", "same"}},        {"mul", {"f16", "same"}},
      {"mul", {"bf16", "same"}},       {"muladd", {"f32", "same"}},
      {"muladd", {"f16", "same"}},     {"muladd", {"bf16", "same"}},
      {"cast", {"f32", "f16"}},        {"cast", {"f32", "bf16"}},
      {"cast", {"f16", "f32"}},        {"cast", {"bf16", "f32"}},
  };
  int checked = 0;
  for (const char* variant : {"naive", "grid_stride", "packed", "packed_half2"}) {
    for (const auto& [op, types] : cases) {
      for (const char* n : {"1", "31", "1048579"}) {
        for (const char* offset : {"0", "1", "2", "5"}) {
          RawParams params{{"op", op},
                           {"dtype", types.in},
                           {"out_dtype", types.out},
                           {"n", n},
                           {"offset", offset}};
          if (!accepted(variant, params)) continue;  // packed_half2 on f32 only
          const RunResult r = run(variant, params);
          ASSERT_EQ(r.status, RunStatus::Ok)
              << variant << " " << op << " " << types.in << "->" << types.out << " n=" << n
              << " offset=" << offset << ": " << r.error;
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 900);
}

// One wave over an odd n: threads that loop (small packs, few threads) and threads that take one
// step (the kernels without a loop), each with a tail.
TEST_F(ElementwiseGpu, EveryPackSizeBlockSizeAndUnrollIsRight) {
  int looped = 0, onePass = 0;
  for (const char* dtype : {"f32", "f16"}) {
    for (const char* pack : {"1", "2", "4", "8"}) {
      for (const char* block : {"32", "96", "1024"}) {
        for (const char* unroll : {"1", "2", "4"}) {
          RawParams params{{"op", "muladd"},    {"dtype", dtype},      {"n", "1048579"},
                           {"pack_size", pack}, {"block_size", block}, {"waves", "1"},
                           {"unroll", unroll}};
          for (const char* variant : {"packed", "packed_half2"}) {
            if (!accepted(variant, params)) continue;
            RunResult r;
            try {
              r = run(variant, params);
            } catch (const Error& e) {
              // Registers can hold a kernel to fewer threads than the device allows: that must
              // be a parameter error naming block_size, never a failed launch.
              EXPECT_EQ(e.param(), "block_size") << e.what();
              EXPECT_STREQ(block, "1024");
              continue;
            }
            EXPECT_EQ(r.status, RunStatus::Ok)
                << variant << " " << dtype << " pack " << pack << ": " << r.error;
            EXPECT_EQ(r.derived.get("pack_size_used"), pack);
            ++(r.derived.get("passes") == "1" ? onePass : looped);
          }
        }
      }
    }
  }
  EXPECT_GT(looped, 10);
  EXPECT_GT(onePass, 10);
}

TEST_F(ElementwiseGpu, TimedRunsReportBandwidthAndThePackUsed) {
  const RunResult r = run("packed", {{"op", "mul"}, {"dtype", "bf16"}, {"n", "2^24"}}, false);
  ASSERT_EQ(r.status, RunStatus::Ok) << r.error;
  EXPECT_EQ(r.bytes, 3u * 2u * (1u << 24));
  EXPECT_GE(r.stats.count, 10u);
  EXPECT_GT(r.bandwidth, 0);
  EXPECT_EQ(r.derived.get("pack_size_used"), "8");
}

}  // namespace
}  // namespace kwb
