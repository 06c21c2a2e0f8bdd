#include "db/sasscache.h"

#include <gtest/gtest.h>

#include "db/database.h"
#include "db/runstore.h"
#include "db/testdb.h"

namespace kwb {
namespace {

using testing::TempDir;

TEST(SassCache, KeepsListingsPerBinaryAndArchitecture) {
  TempDir dir;
  RunStore store(dir.file("h.sqlite"));
  SassCache cache(store.database());
  EXPECT_EQ(cache.find("bin1", "sm_90", "k"), std::nullopt);
  cache.store("bin1", "sm_90", "k", "/*0000*/ EXIT ;\n");
  EXPECT_EQ(cache.find("bin1", "sm_90", "k"), "/*0000*/ EXIT ;\n");
  EXPECT_EQ(cache.find("bin1", "sm_80", "k"), std::nullopt);
  EXPECT_EQ(cache.find("bin2", "sm_90", "k"), std::nullopt);
  cache.store("bin1", "sm_90", "k", "/*0000*/ NOP ;\n");  // replaced, not added
  EXPECT_EQ(cache.find("bin1", "sm_90", "k"), "/*0000*/ NOP ;\n");
}

TEST(SassCache, OnlyTheNewestBinariesStay) {
  TempDir dir;
  RunStore store(dir.file("h.sqlite"));
  SassCache cache(store.database());
  for (int b = 0; b <= SassCache::kKeptBinaries; ++b) {
    const std::string binary = "bin" + std::to_string(b);
    cache.store(binary, "sm_90", "k", "x");
    // Stored in the same millisecond, binaries would tie: make the order plain.
    store.database().exec("UPDATE sass_listings SET stored_at = " + std::to_string(b) +
                          " WHERE binary = '" + binary + "'");
  }
  cache.store("bin" + std::to_string(SassCache::kKeptBinaries), "sm_90", "k2", "y");
  EXPECT_EQ(cache.find("bin0", "sm_90", "k"), std::nullopt);
  for (int b = 1; b <= SassCache::kKeptBinaries; ++b)
    EXPECT_EQ(cache.find("bin" + std::to_string(b), "sm_90", "k"), "x") << b;
}

}  // namespace
}  // namespace kwb
