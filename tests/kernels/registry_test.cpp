#include "kernels/registry.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kwb {
namespace {

const Registry& registry() {
  return Registry::instance();
}

std::string paramOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Param) << e.what();
    return e.param();
  }
  return "(no error)";
}

TEST(Registry, ListsTheCopyFamily) {
  const auto families = registry().families();
  ASSERT_FALSE(families.empty());
  const FamilyInfo copy = registry().family("copy");
  ASSERT_EQ(copy.variants.size(), 2u);
  EXPECT_EQ(copy.variants[0].name, "memcpy");
  EXPECT_EQ(copy.variants[1].name, "vectorized");
  for (const auto& variant : copy.variants) {
    EXPECT_FALSE(variant.teaches.empty());
    EXPECT_EQ(variant.sizeParam, "n");
    for (const auto& spec : variant.params) {
      EXPECT_FALSE(spec.meaning.empty()) << spec.name;
      // Every default passes its own validation.
      EXPECT_NO_THROW(canonicalValue(spec, spec.defaultValue)) << spec.name;
    }
  }
}

TEST(Registry, UnknownNamesListTheAllowedOnes) {
  EXPECT_EQ(paramOf([] { registry().find("copyy", "memcpy"); }), "family");
  EXPECT_EQ(paramOf([] { registry().find("copy", "fast"); }), "variant");
  try {
    registry().find("copy", "fast");
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("allowed: memcpy, vectorized"), std::string::npos);
  }
}

TEST(Registry, ResolvesWithDefaults) {
  ParamSet p = registry().resolve("copy", "vectorized", {{"n", "2^20"}});
  EXPECT_EQ(p.get("n"), "1048576");
  EXPECT_EQ(p.get("block_size"), "256");
  EXPECT_EQ(p.get("vector_bytes"), "16");
  EXPECT_EQ(registry().resolve("copy", "memcpy", {}).values().size(), 2u);
}

TEST(Registry, VectorMustHoldWholeElements) {
  EXPECT_EQ(paramOf([] {
              registry().resolve("copy", "vectorized", {{"dtype", "f64"}, {"vector_bytes", "4"}});
            }),
            "vector_bytes");
  EXPECT_NO_THROW(
      registry().resolve("copy", "vectorized", {{"dtype", "u8"}, {"vector_bytes", "1"}}));
}

TEST(Registry, LaunchParametersDoNotExistOnMemcpy) {
  EXPECT_EQ(paramOf([] {
              registry().resolve("copy", "memcpy", {{"block_size", "128"}});
            }),
            "block_size");
}

TEST(Registry, SweepsAreCheckedPointByPoint) {
  auto points = registry().expand("copy", "vectorized", {{"dtype", "f32"}},
                                  {"vector_bytes=4,8,16", "block_size=128:512:*2"});
  EXPECT_EQ(points.size(), 9u);
  EXPECT_EQ(paramOf([] {
              registry().expand("copy", "vectorized", {{"dtype", "f64"}}, {"vector_bytes=4,8,16"});
            }),
            "vector_bytes");
}

}  // namespace
}  // namespace kwb
