#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"
#include "kernels/elementwise/elementwiseop.h"
#include "kernels/h100device.h"
#include "kernels/registry.h"

namespace kwb {
namespace {

const Registry& registry() {
  return Registry::instance();
}

std::string errorOf(const std::string& variant, const RawParams& params) {
  try {
    registry().resolve("elementwise", variant, params);
  } catch (const Error& e) {
    return e.param() + ": " + e.what();
  }
  return "(accepted)";
}

ParamSet derived(const std::string& variant, const RawParams& params) {
  const Variant& v = registry().find("elementwise", variant);
  return v.create(registry().resolve("elementwise", variant, params), h100())->derived();
}

TEST(Elementwise, FourVariantsWithTheirParameters) {
  const FamilyInfo family = registry().family("elementwise");
  ASSERT_EQ(family.variants.size(), 4u);
  EXPECT_EQ(family.variants[0].name, "naive");
  EXPECT_EQ(family.variants[3].name, "packed_half2");
  auto names = [](const VariantInfo& v) {
    std::string text;
    for (const auto& p : v.params) text += p.name + " ";
    return text;
  };
  EXPECT_EQ(names(family.variants[0]), "n op dtype out_dtype offset block_size ");
  EXPECT_EQ(names(family.variants[1]), "n op dtype out_dtype offset block_size waves ");
  EXPECT_EQ(names(family.variants[2]),
            "n op dtype out_dtype offset block_size waves pack_size unroll ");
}

TEST(Elementwise, PacksAboveSixteenBytesAreRejectedWithTheReason) {
  EXPECT_EQ(errorOf("packed", {{"pack_size", "8"}}),
            "pack_size: parameter 'pack_size': 8 elements of 4 bytes make 32 bytes, more than one "
            "16-byte access; allowed here: 1, 2, 4 or auto");
  EXPECT_EQ(errorOf("packed", {{"pack_size", "8"}, {"dtype", "f16"}}), "(accepted)");
  EXPECT_EQ(errorOf("packed", {{"pack_size", "3"}}).substr(0, 10), "pack_size:");
  // A cast from f16 to f32 writes 4-byte elements: the wider side decides.
  EXPECT_NE(errorOf("packed",
                    {{"op", "cast"}, {"dtype", "f16"}, {"out_dtype", "f32"}, {"pack_size", "8"}}),
            "(accepted)");
}

TEST(Elementwise, PairsNeedSixteenBitData) {
  EXPECT_EQ(errorOf("packed_half2", {{"dtype", "f32"}}).substr(0, 6), "dtype:");
  EXPECT_EQ(errorOf("packed_half2", {{"dtype", "bf16"}}), "(accepted)");
  EXPECT_EQ(errorOf("packed_half2", {}), "(accepted)");  // its dtype defaults to f16
  EXPECT_EQ(errorOf("packed_half2", {{"dtype", "f16"}, {"pack_size", "1"}}).substr(0, 10),
            "pack_size:");
  EXPECT_EQ(errorOf("packed_half2", {{"op", "cast"}, {"dtype", "f32"}, {"out_dtype", "bf16"}}),
            "(accepted)");
}

TEST(Elementwise, OnlyCastChangesTheType) {
  EXPECT_EQ(errorOf("naive", {{"op", "relu"}, {"out_dtype", "f16"}}).substr(0, 10), "out_dtype:");
  EXPECT_EQ(errorOf("naive", {{"op", "relu"}, {"out_dtype", "f32"}}), "(accepted)");
  EXPECT_EQ(errorOf("naive", {{"op", "cast"}}).substr(0, 10), "out_dtype:");
  EXPECT_EQ(
      errorOf("naive", {{"op", "cast"}, {"dtype", "f16"}, {"out_dtype", "bf16"}}).substr(0, 10),
      "out_dtype:");
  EXPECT_EQ(errorOf("naive", {{"op", "cast"}, {"dtype", "bf16"}, {"out_dtype", "f32"}}),
            "(accepted)");
  EXPECT_EQ(errorOf("naive", {{"op", "softmax"}}).substr(0, 3), "op:");
}

TEST(Elementwise, AutoPackIsTheWidestAndMisalignmentFallsBack) {
  EXPECT_EQ(derived("packed", {}).get("pack_size_used"), "4");
  EXPECT_EQ(derived("packed", {{"dtype", "f16"}}).get("pack_size_used"), "8");
  EXPECT_EQ(derived("packed", {{"offset", "1"}}).get("pack_size_used"), "1");
  EXPECT_EQ(derived("packed", {{"offset", "2"}}).get("pack_size_used"), "2");
  EXPECT_EQ(derived("packed", {{"dtype", "f16"}, {"offset", "4"}}).get("pack_size_used"), "4");
  EXPECT_EQ(derived("packed_half2", {{"dtype", "f16"}}).get("math"), "pairs");
  // An odd offset leaves no aligned pair: the pair variant falls back to scalar math.
  const ParamSet odd = derived("packed_half2", {{"dtype", "f16"}, {"offset", "1"}});
  EXPECT_EQ(odd.get("pack_size_used"), "1");
  EXPECT_EQ(odd.get("math"), "scalar");
}

// pack_size=auto: 16 bytes, but 8 for 16-bit data where 16-byte packs would not fill the H100's
// 1056 block slots of 256 threads (twice the threads for a small call's math).
TEST(Elementwise, AutoPackHalvesWhereSixteenBytesLeaveBlockSlotsEmpty) {
  const auto pack = [](const char* dtype, const char* n) {
    return derived("packed", {{"dtype", dtype}, {"n", n}}).get("pack_size_used");
  };
  EXPECT_EQ(pack("f32", "2^22"), "4");
  EXPECT_EQ(pack("f32", "150528"), "4");  // f32 keeps 16 bytes at every size
  EXPECT_EQ(pack("f16", "2^22"), "8");    // 2048 blocks of 16-byte packs
  EXPECT_EQ(pack("f16", "2^20"), "4");    // 512 blocks of them: not a wave
  EXPECT_EQ(pack("bf16", "150528"), "4");
  const ParamSet small = derived("packed_half2", {{"dtype", "f16"}, {"n", "150528"}});
  EXPECT_EQ(small.get("pack_size_used"), "4");
  EXPECT_EQ(small.get("grid"), "147");
  EXPECT_EQ(small.get("math"), "pairs");
}

TEST(Elementwise, GridFollowsWavesAndNaiveCoversTheData) {
  EXPECT_EQ(derived("naive", {{"n", "2^20"}}).get("grid"), "4096");
  EXPECT_EQ(derived("grid_stride", {{"n", "2^28"}, {"waves", "2"}}).get("grid"), "2112");
  EXPECT_EQ(derived("packed", {{"n", "2^28"}}).get("waves_used"), "32");
  EXPECT_EQ(derived("packed", {{"n", "1000"}, {"unroll", "1"}}).get("grid"),
            "1");  // 250 packs of 4
  EXPECT_EQ(derived("packed", {{"n", "2^20"}, {"unroll", "1"}}).get("grid"), "1024");
  EXPECT_EQ(derived("packed", {{"n", "2^20"}, {"unroll", "4"}}).get("grid"), "256");
  // unroll=auto: 1 pack a thread, at every size.
  const ParamSet small = derived("packed", {{"n", "150528"}});
  EXPECT_EQ(small.get("unroll_used"), "1");
  EXPECT_EQ(small.get("grid"), "147");
  EXPECT_EQ(derived("packed", {{"n", "2^28"}}).get("unroll_used"), "1");
  // 16-bit gelu in pairs takes 2 where the grid still fills every SM's block slots (1056 blocks
  // of 256 on an H100): at 2^23 halves 2048 blocks of 2 packs of 8, at 2^22 1024.
  const auto unroll = [](const std::string& op, const std::string& n,
                         const std::string& variant = "packed_half2") {
    return derived(variant, {{"op", op}, {"dtype", "f16"}, {"n", n}}).get("unroll_used");
  };
  EXPECT_EQ(unroll("gelu", "2^23"), "2");
  EXPECT_EQ(unroll("gelu", "2^28"), "2");
  EXPECT_EQ(unroll("gelu_tanh", "2^28"), "1");
  EXPECT_EQ(unroll("gelu", "2^22"), "1");
  EXPECT_EQ(unroll("silu", "2^23"), "1");
  EXPECT_EQ(unroll("gelu", "2^23", "packed"), "1");  // the math per element
  // Narrowing casts take 2 where the grid of 2 fills 4 waves: 8192 blocks at 2^24 floats.
  const auto cast = [](const std::string& n) {
    return derived("packed", {{"op", "cast"}, {"out_dtype", "f16"}, {"n", n}}).get("unroll_used");
  };
  EXPECT_EQ(cast("2^24"), "2");
  EXPECT_EQ(cast("2^23"), "1");
}

// Threads loop where the grid is short of the packs, and the kernel then keeps its loop; where
// the grid covers them (the default launch below 32 waves) the kernel has none.
TEST(Elementwise, PassesCountTheStepsOfTheLongestThread) {
  const auto passes = [](const std::string& variant, const RawParams& params) {
    return derived(variant, params).get("passes");
  };
  EXPECT_EQ(passes("packed", {{"n", "2^20"}}), "1");
  EXPECT_EQ(passes("packed_half2", {{"dtype", "f16"}, {"n", "150528"}}), "1");
  // 2^26 packs of 4 over 33792 blocks of 256.
  EXPECT_EQ(passes("packed", {{"n", "2^28"}}), "8");
  // 2^20 single elements over a wave of 8448 blocks of 32.
  EXPECT_EQ(passes("packed", {{"n", "2^20"},
                              {"pack_size", "1"},
                              {"unroll", "1"},
                              {"block_size", "32"},
                              {"waves", "1"}}),
            "4");
  EXPECT_EQ(passes("grid_stride", {{"n", "2^28"}, {"waves", "2"}}), "497");
}

TEST(Elementwise, AutoBlockIs128ForF32GeluAsPyTorchLaunchesIt) {
  const auto block = [](const RawParams& params) {
    return derived("packed", params).get("block_size_used");
  };
  EXPECT_EQ(block({{"op", "gelu"}, {"n", "2^20"}}), "128");
  EXPECT_EQ(derived("packed", {{"op", "gelu"}, {"n", "2^20"}}).get("grid"), "2048");
  EXPECT_EQ(block({{"op", "gelu"}, {"dtype", "f16"}}), "256");
  EXPECT_EQ(block({{"op", "gelu_tanh"}}), "256");
  EXPECT_EQ(block({{"op", "relu"}}), "256");
  const ParamSet given = derived("packed", {{"op", "gelu"}, {"n", "2^20"}, {"block_size", "256"}});
  EXPECT_FALSE(given.has("block_size_used"));
  EXPECT_EQ(given.get("grid"), "1024");
  EXPECT_EQ(errorOf("naive", {{"block_size", "auto"}}).substr(0, 11), "block_size:");
}

// 32-bit indices wherever n and one grid stride past it fit them: the kernels with no 64-bit code.
TEST(Elementwise, IndicesAre32BitWhereTheyFit) {
  EXPECT_EQ(derived("packed", {{"n", "150528"}}).get("index_bits"), "32");
  EXPECT_EQ(derived("packed", {{"n", "2^31"}}).get("index_bits"), "32");
  // A grid of 32 waves of 256 threads, 4 packs of 4 each: 138 million elements a stride.
  EXPECT_EQ(derived("packed", {{"n", "4150000000"}, {"unroll", "4"}}).get("index_bits"), "32");
  EXPECT_EQ(derived("packed", {{"n", "4200000000"}, {"unroll", "4"}}).get("index_bits"), "64");
  EXPECT_EQ(derived("grid_stride", {{"n", "4250000000"}}).get("index_bits"), "32");
  EXPECT_EQ(derived("grid_stride", {{"n", "2^32"}}).get("index_bits"), "64");
  EXPECT_FALSE(derived("naive", {{"n", "2^20"}}).has("index_bits"));
}

TEST(Elementwise, ReferenceValues) {
  EXPECT_EQ(referenceValue(ElementwiseOp::Relu, -1.5, 0, 0), 0.0);
  EXPECT_EQ(referenceValue(ElementwiseOp::Relu, 2.5, 0, 0), 2.5);
  EXPECT_NEAR(referenceValue(ElementwiseOp::Gelu, 1.0, 0, 0), 0.8413447460685429, 1e-15);
  EXPECT_NEAR(referenceValue(ElementwiseOp::GeluTanh, 1.0, 0, 0), 0.8411919906082768, 1e-15);
  EXPECT_NEAR(referenceValue(ElementwiseOp::Silu, 1.0, 0, 0), 0.7310585786300049, 1e-15);
  EXPECT_EQ(referenceValue(ElementwiseOp::Mul, 3, 4, 0), 12.0);
  EXPECT_EQ(referenceValue(ElementwiseOp::MulAdd, 3, 4, 5), 17.0);
  EXPECT_EQ(arity(ElementwiseOp::MulAdd), 3);
}

}  // namespace
}  // namespace kwb
