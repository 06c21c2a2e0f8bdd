#include <algorithm>
#include <functional>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/paramspec.h"
#include "gpu/familygpu.h"
#include "kernels/permute/linetranspose.h"
#include "kernels/permute/permuteplan.h"
#include "kernels/registry.h"
#include "measure/runner.h"

namespace kwb {
namespace {

class PermuteGpu : public testing::FamilyGpu {
 protected:
  RunResult run(const std::string& variant, const RawParams& params) {
    return runVariant("permute", variant, params, true);
  }

  // General tiles with `access` over every case in u8, f16 and bf16, from sources 0, 1, 3 and 6
  // elements in; each run must succeed and match bit for bit, and `check` looks at it further.
  using OddCase = std::pair<const char*, const char*>;  // shape, perm
  void runOddCases(std::span<const OddCase> cases, const char* access,
                   const std::function<void(const RunResult&, const std::string& what)>& check,
                   const RawParams& extra = {}) {
    for (const auto& [shape, perm] : cases)
      for (const char* dtype : {"u8", "f16", "bf16"})
        for (const char* offset : {"0", "1", "3", "6"}) {
          RawParams params = extra;
          params.insert({{"shape", shape},
                         {"perm", perm},
                         {"dtype", dtype},
                         {"offset", offset},
                         {"access", access}});
          const RunResult r = run("general", params);
          const std::string what =
              std::string(shape) + " " + perm + " " + dtype + " offset " + offset;
          ASSERT_EQ(r.status, RunStatus::Ok) << what << ": " << r.error;
          EXPECT_EQ(r.verification.relError, 0.0) << what;
          check(r, what);
        }
  }

  // Narrow cells in registers over 2 to 8 planes, six trials each: planes first on even trials,
  // batches in order on trials 2 and 3, reordered on 4 and 5. `configure` gives each trial's
  // width, source offset and block for bytes or halves; each run must match bit for bit.
  struct CellTrial {
    std::string wide, offset, block;
  };
  void runCellTrials(std::initializer_list<const char*> dtypes,
                     const std::function<CellTrial(int narrow, int trial, bool bytes)>& configure) {
    const char* batches[] = {"", "3,", "2,3,"};
    const char* perms[] = {"1,0", "0,2,1", "1,0,3,2"};
    for (int narrow = 2; narrow <= 8; ++narrow)
      for (int trial = 0; trial < 6; ++trial)
        for (const char* dtype : dtypes) {
          const CellTrial c = configure(narrow, trial, std::string(dtype) == "u8");
          const std::string n = std::to_string(narrow);
          const std::string sides = trial % 2 == 0 ? n + "," + c.wide : c.wide + "," + n;
          const RawParams params{{"shape", batches[trial / 2] + sides},
                                 {"perm", perms[trial / 2]},
                                 {"dtype", dtype},
                                 {"offset", c.offset},
                                 {"block_size", c.block},
                                 {"exchange", "registers"}};
          const RunResult r = run("narrow", params);
          const std::string what = params.at("shape") + " " + dtype + " offset " + c.offset;
          ASSERT_EQ(r.status, RunStatus::Ok) << what << ": " << r.error;
          EXPECT_EQ(r.verification.relError, 0.0) << what;
          EXPECT_EQ(r.derived.get("exchange"), "registers") << what;
        }
  }
};

std::string join(const std::vector<std::int64_t>& items) {
  std::string text;
  for (auto v : items) text += (text.empty() ? "" : ",") + std::to_string(v);
  return text;
}

// Random shapes of 1 to 8 dimensions with narrow dimensions (under 32), dimensions of 1 and odd
// sizes, at most 2^18 elements, with random permutations and sources offset 0 to 15 elements.
struct RandomCase {
  std::string shape, perm, offset;
};

RandomCase randomCase(std::mt19937& rng) {
  const int rank = std::uniform_int_distribution<int>(1, 8)(rng);
  const std::int64_t sizes[] = {1, 2, 3, 5, 7, 16, 31, 33, 64, 127};
  std::vector<std::int64_t> shape;
  std::int64_t elements = 1;
  for (int d = 0; d < rank; ++d) {
    std::int64_t size = sizes[std::uniform_int_distribution<int>(0, 9)(rng)];
    while (elements * size > (1 << 18)) size = 1;
    shape.push_back(size);
    elements *= size;
  }
  std::vector<std::int64_t> perm(static_cast<std::size_t>(rank));
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  const int offset = std::uniform_int_distribution<int>(0, 3)(rng) == 0
                         ? std::uniform_int_distribution<int>(1, 15)(rng)
                         : 0;
  return {join(shape), join(perm), std::to_string(offset)};
}

TEST_F(PermuteGpu, EveryVariantMatchesTheReferenceOnRandomShapesInEveryElementSize) {
  std::mt19937 rng(5);
  int checked = 0, general = 0, packed = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const auto [shape, perm, offset] = randomCase(rng);
    for (const char* dtype : {"u8", "f16", "f32", "f64"}) {
      for (const char* variant : {"naive", "simplified", "movement", "general", "packed", "auto"}) {
        const RawParams params{
            {"shape", shape}, {"perm", perm}, {"dtype", dtype}, {"offset", offset}};
        const std::string name = variant;
        if (name == "general" || name == "packed") {
          try {
            Registry::instance().resolve("permute", variant, params);
          } catch (const Error&) {
            continue;  // general: the innermost dimension stays; packed: both sides too long
          }
          ++(name == "general" ? general : packed);
        }
        const RunResult r = run(variant, params);
        ASSERT_EQ(r.status, RunStatus::Ok)
            << variant << " shape=" << shape << " perm=" << perm << " offset=" << offset << " "
            << dtype << ": " << r.error;
        EXPECT_EQ(r.verification.relError, 0.0);
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 40 * 4 * 4 + general + packed);
  EXPECT_GT(general, 40);
  EXPECT_GT(packed, 100);
}

// General tiles' aligned stores of 4- and 8-byte units over random shapes and offset sources:
// each column written from the sector boundary before its tile, the out group's last tile writing
// the rest; tiles whose rows span less than a sector made taller. Rows of 4 and 8 bytes moved as
// units, rows of 2 bytes in cells, and auto's choice on a reversal whose columns start inside
// sectors.
TEST_F(PermuteGpu, GeneralAlignedStoresMatchTheReference) {
  std::mt19937 rng(11);
  int aligned = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const auto [shape, perm, offset] = randomCase(rng);
    for (const char* dtype : {"f32", "f64"}) {
      const RawParams params{{"shape", shape},
                             {"perm", perm},
                             {"dtype", dtype},
                             {"offset", offset},
                             {"stores", "aligned"}};
      try {
        Registry::instance().resolve("permute", "general", params);
      } catch (const Error&) {
        continue;  // rows that stay innermost as units of their bytes, or longer than tiles take
      }
      const RunResult r = run("general", params);
      const std::string what = shape + " " + perm + " " + dtype + " offset " + offset;
      ASSERT_EQ(r.status, RunStatus::Ok) << what << ": " << r.error;
      EXPECT_EQ(r.verification.relError, 0.0) << what;
      EXPECT_EQ(r.derived.get("stores"), "aligned") << what;
      ++aligned;
    }
  }
  EXPECT_GT(aligned, 40);
  const std::pair<const char*, const char*> rows[] = {{"100,58,18,2", "2,1,0,3"},
                                                      {"3,70,5,4", "2,0,1,3"}};
  for (const auto& [shape, perm] : rows)
    for (const char* dtype : {"u8", "f16"}) {
      const RawParams params{
          {"shape", shape}, {"perm", perm}, {"dtype", dtype}, {"stores", "aligned"}};
      const RunResult r = run("general", params);
      ASSERT_EQ(r.status, RunStatus::Ok) << shape << " " << dtype << ": " << r.error;
      EXPECT_EQ(r.verification.relError, 0.0) << shape << " " << dtype;
      EXPECT_EQ(r.derived.get("stores"), "aligned") << shape << " " << dtype;
    }
  const RunResult reversal = run("auto", {{"shape", "87,6,40000"}, {"perm", "2,1,0"}});
  ASSERT_EQ(reversal.status, RunStatus::Ok) << reversal.error;
  EXPECT_EQ(reversal.derived.get("stores"), "aligned");
  EXPECT_EQ(reversal.verification.relError, 0.0);
}

// General tiles of every width tile_in allows, their rows filling the rest of the tile, in every
// element size, with stores as the tile lies and aligned: random shapes leave tiles part-filled on
// both sides. Every block size, so that a block spans less than a tile's side (blocks of 128
// across tiles 256 wide or 1024 tall) as well as more.
TEST_F(PermuteGpu, GeneralTilesOfEveryWidthMatchTheReference) {
  std::mt19937 rng(23);
  const char* blocks[] = {"128", "256", "512", "1024"};
  int ran = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const auto [shape, perm, offset] = randomCase(rng);
    const char* block = blocks[trial % 4];
    for (const char* dtype : {"u8", "f16", "f32", "f64"})
      for (const char* tileIn : {"4", "8", "16", "32", "64", "128", "256"})
        for (const char* stores : {"tile", "aligned"}) {
          const bool wide = std::string(dtype) == "f32" || std::string(dtype) == "f64";
          if (!wide && std::string(stores) == "aligned") continue;
          const RawParams params{{"shape", shape},      {"perm", perm},
                                 {"dtype", dtype},      {"offset", offset},
                                 {"tile_in", tileIn},   {"stores", stores},
                                 {"block_size", block}, {"access", wide ? "elements" : "auto"}};
          try {
            Registry::instance().resolve("permute", "general", params);
          } catch (const Error&) {
            continue;  // rows longer than tiles take, or cells, or aligned stores of rows
          }
          const RunResult r = run("general", params);
          const std::string what = shape + " " + perm + " " + dtype + " offset " + offset +
                                   " tile_in " + tileIn + " stores " + stores + " block " + block;
          ASSERT_EQ(r.status, RunStatus::Ok) << what << ": " << r.error;
          EXPECT_EQ(r.verification.relError, 0.0) << what;
          ++ran;
        }
  }
  EXPECT_GT(ran, 200);
}

// Packed tiles in every element size, from offset sources, with chunks that divide their
// dimension and last chunks that hold less, every tile size and block size allowed.
TEST_F(PermuteGpu, PackedTilesMatchTheReference) {
  const std::pair<const char*, const char*> cases[] = {{"5,2739,7,7", "2,3,1,0"},
                                                       {"100,3,23,40,24", "4,2,0,3,1"},
                                                       {"1278,3,100,7", "3,1,0,2"},
                                                       {"87,6,6428", "2,1,0"},
                                                       {"3,3,24,3,829,5", "5,2,0,4,1,3"},
                                                       {"38,23547,3", "2,1,0"},
                                                       {"17,20,170,8,29", "3,1,0,2,4"},
                                                       {"64,4096,2", "1,0,2"},
                                                       {"100001", "0"}};
  int runs = 0;
  for (const auto& [shape, perm] : cases)
    for (const char* dtype : {"u8", "f16", "f32", "f64"})
      for (const auto& [block, elements] :
           {std::pair{"512", "4096"}, std::pair{"256", "2048"}, std::pair{"128", "512"}}) {
        const std::string offset = runs % 3 == 0 ? "3" : "0";
        const RunResult r = run("packed", {{"shape", shape},
                                           {"perm", perm},
                                           {"dtype", dtype},
                                           {"offset", offset},
                                           {"block_size", block},
                                           {"tile_elements", elements}});
        const std::string what = std::string(shape) + " " + perm + " " + dtype + " " + block +
                                 " threads, tiles of " + elements + ", offset " + offset;
        ASSERT_EQ(r.status, RunStatus::Ok) << what << ": " << r.error;
        EXPECT_EQ(r.verification.relError, 0.0) << what << " " << r.derived.get("packed");
        ++runs;
      }
  EXPECT_EQ(runs, 9 * 4 * 3);
  // A reversal of short sides: runs of 16 x 49 bytes read, 16 x 5 written.
  const RunResult reversal =
      run("packed", {{"shape", "5,273913,7,7"}, {"perm", "2,3,1,0"}, {"dtype", "u8"}});
  ASSERT_EQ(reversal.status, RunStatus::Ok) << reversal.error;
  EXPECT_EQ(reversal.derived.get("run_bytes_read"), "784");
  EXPECT_EQ(reversal.derived.get("run_bytes_written"), "80");
}

// Packed tiles in words, on shapes whose runs are whole words on both sides: every element size
// words fit, every block and tile size, a last chunk that holds less; words against elements.
TEST_F(PermuteGpu, PackedWordsMatchTheReference) {
  const std::pair<const char*, const char*> cases[] = {{"1278,3,100,7", "3,1,0,2"},
                                                       {"12,2663,12,7", "1,3,2,0"},
                                                       {"24,287,2,243,8", "1,3,0,4,2"},
                                                       {"100,3,23,400,24", "4,2,0,3,1"},
                                                       {"38,23549,4", "2,1,0"}};
  int words = 0;
  for (const auto& [shape, perm] : cases)
    for (const char* dtype : {"u8", "f16", "f32"})
      for (const auto& [block, elements] :
           {std::pair{"512", "4096"}, std::pair{"256", "2048"}, std::pair{"128", "512"}}) {
        const std::string what = std::string(shape) + " " + perm + " " + dtype + " " + block +
                                 " threads, tiles of " + elements;
        const RawParams params{{"shape", shape},
                               {"perm", perm},
                               {"dtype", dtype},
                               {"block_size", block},
                               {"tile_elements", elements}};
        RawParams inWords = params;
        inWords["access"] = "auto";
        const RunResult r = run("packed", inWords);
        ASSERT_EQ(r.status, RunStatus::Ok) << what << ": " << r.error;
        EXPECT_EQ(r.verification.relError, 0.0) << what << " " << r.derived.get("packed");
        if (r.derived.get("access") != "words") continue;
        ++words;
        RawParams inElements = params;
        inElements["access"] = "elements";
        const RunResult e = run("packed", inElements);
        ASSERT_EQ(e.status, RunStatus::Ok) << what << ": " << e.error;
        EXPECT_EQ(e.derived.get("access"), "elements");
      }
  EXPECT_GE(words, 30);
  // A source that starts inside a word moves in elements.
  const RunResult shifted = run(
      "packed", {{"shape", "1278,3,100,7"}, {"perm", "3,1,0,2"}, {"dtype", "u8"}, {"offset", "3"}});
  ASSERT_EQ(shifted.status, RunStatus::Ok) << shifted.error;
  EXPECT_EQ(shifted.derived.get("access"), "elements");
  EXPECT_EQ(shifted.verification.relError, 0.0);
}

// The movement kernel's row walk against its walk by units, where rows are long enough for it:
// rows of exactly 5 units, tails of a warp's stretch, every element size and offset.
TEST_F(PermuteGpu, MovementWalksRowsAsItWalksUnits) {
  std::mt19937 rng(11);
  int rows = 0;
  const auto check = [&](const std::string& shape, const std::string& perm,
                         const std::string& offset) {
    for (const char* dtype : {"u8", "f16", "f32", "f64"})
      for (const char* walk : {"units", "rows"}) {
        const RawParams params{
            {"shape", shape}, {"perm", perm}, {"dtype", dtype}, {"offset", offset}, {"walk", walk}};
        try {
          Registry::instance().resolve("permute", "movement", params);
        } catch (const Error&) {
          continue;  // rows shorter than a warp's lanes can hand out, said before running
        }
        const RunResult r = run("movement", params);
        const std::string what = shape + " " + perm + " " + dtype + " offset " + offset;
        ASSERT_EQ(r.status, RunStatus::Ok) << what << " walk=" << walk << ": " << r.error;
        EXPECT_EQ(r.verification.relError, 0.0) << what << " walk=" << walk;
        EXPECT_EQ(r.derived.get("walk"), walk) << what;
        rows += std::string(walk) == "rows";
      }
  };
  check("7,5,3", "2,1,0", "0");
  check("3,2,4,2151,13", "3,2,0,1,4", "1");
  check("6,4,2151,13", "2,1,0,3", "0");
  check("12,2663,12,7", "1,3,2,0", "3");
  for (int trial = 0; trial < 40; ++trial) {
    const auto [shape, perm, offset] = randomCase(rng);
    check(shape, perm, offset);
  }
  EXPECT_GT(rows, 40);
}

// Deep walks, where the grid still fills the device: halves 16 moves a thread and rows of them two
// stretches a warp, floats 8 moves, bytes and doubles the usual 4; counts that leave a tail.
TEST_F(PermuteGpu, MovementWalksDeepWhereTheGridFillsTheDevice) {
  struct Case {
    const char *shape, *perm, *dtype, *offset, *walk, *moves;
  };
  for (const Case& c : {Case{"3,20,170,25,29", "3,1,0,2,4", "f16", "0", "rows", "8"},
                        Case{"3,20,170,25,29", "3,1,0,2,4", "f16", "3", "rows", "8"},
                        Case{"1000,4,5,5,127", "3,0,2,4,1", "f16", "0", "units", "16"},
                        Case{"14,96,24,3,97", "2,1,0,4,3", "f32", "1", "units", "8"},
                        Case{"14,96,24,3,97", "2,1,0,4,3", "u8", "0", "units", "4"},
                        Case{"14,96,24,3,97", "2,1,0,4,3", "f64", "0", "units", "4"}}) {
    const RawParams params{
        {"shape", c.shape}, {"perm", c.perm}, {"dtype", c.dtype}, {"offset", c.offset}};
    const RunResult r = run("movement", params);
    const std::string what = std::string(c.shape) + " " + c.dtype + " offset " + c.offset;
    ASSERT_EQ(r.status, RunStatus::Ok) << what << ": " << r.error;
    EXPECT_EQ(r.verification.relError, 0.0) << what;
    EXPECT_EQ(r.derived.get("walk"), c.walk) << what;
    EXPECT_EQ(r.derived.get("moves_per_thread"), c.moves) << what;
  }
}

// Transposes of every kind the tiled kernels take: sides shorter than a tile, odd sides, batches,
// every tile size, rows per block and padding, in every element size, pairs where even, and
// stores aligned on the destination (columns of tiles of up to three segments).
TEST_F(PermuteGpu, TiledTransposesMatchTheReference) {
  std::mt19937 rng(9);
  const std::int64_t sides[] = {1, 2, 15, 31, 32, 33, 64, 100, 257};
  int checked = 0;
  for (int trial = 0; trial < 24; ++trial) {
    const std::int64_t rows = sides[std::uniform_int_distribution<int>(0, 8)(rng)];
    const std::int64_t cols = sides[std::uniform_int_distribution<int>(0, 8)(rng)];
    const bool batched = trial % 2 == 1;
    const std::string shape =
        (batched ? "3," : "") + std::to_string(rows) + "," + std::to_string(cols);
    const std::string perm = batched ? "0,2,1" : "1,0";
    const char* tile = trial % 3 == 0 ? "16" : trial % 3 == 1 ? "32" : "64";
    const char* rowsPerBlock = trial % 4 == 0 ? "1" : trial % 4 == 1 ? "4" : "8";
    for (const char* padding : {"on", "off"}) {
      for (const char* dtype : {"u8", "f16", "f32", "f64"}) {
        for (const auto& [variant, stores] : {std::pair{"tiled", "tile"},
                                              {"tiled", "aligned"},
                                              {"tiled_half2", "tile"},
                                              {"tiled_half2", "aligned"}}) {
          RawParams params{{"shape", shape},
                           {"perm", perm},
                           {"dtype", dtype},
                           {"tile_size", tile},
                           {"rows_per_block", rowsPerBlock},
                           {"padding", padding},
                           {"offset", trial % 5 == 0 ? "3" : "0"}};
          params["stores"] = stores;
          try {
            Registry::instance().resolve("permute", variant, params);
          } catch (const Error&) {
            continue;  // pairs of odd sides or of other sizes; sides that simplify away
          }
          const RunResult r = run(variant, params);
          ASSERT_EQ(r.status, RunStatus::Ok)
              << variant << " shape=" << shape << " perm=" << perm << " " << dtype
              << " tile=" << tile << " rows=" << rowsPerBlock << " padding=" << padding
              << " stores=" << stores << ": " << r.error;
          EXPECT_EQ(r.derived.get("stores"), stores);
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 250);
}

// Every tiled kernel, and general tiles moving each of their units, with tiles taken in either
// order: several tiles each way, part-filled last tiles, batches, offset sources, aligned
// stores, and tiles inside both groups (1031 x 389 in shifted cells, moved without bounds).
TEST_F(PermuteGpu, TilesMatchTheReferenceInEitherOrder) {
  struct Case {
    const char *variant, *shape, *perm, *dtype;
    RawParams extra;
  };
  const Case cases[] = {
      {"general", "3,65,1001", "2,1,0", "f32", {}},
      {"general", "5,41,7,131", "3,0,2,1", "f64", {{"stores", "aligned"}}},
      {"general", "7,300,5", "2,1,0", "f16", {{"access", "elements"}}},
      {"general", "3,64,1000", "2,1,0", "u8", {{"access", "words"}}},
      {"general", "9,2,515", "2,0,1", "u8", {{"access", "words"}, {"offset", "1"}}},
      {"general", "3,256,264", "2,1,0", "u8", {{"access", "cells"}}},
      {"general", "1031,389", "1,0", "u8", {{"access", "cells"}}},
      {"general", "3,777,261", "0,2,1", "f16", {{"access", "cells"}, {"stores", "aligned"}}},
      {"tiled", "3,257,100", "0,2,1", "f32", {}},
      {"tiled", "1000,130", "1,0", "f64", {{"stores", "aligned"}, {"tile_size", "32"}}},
      {"tiled_half2", "3,130,258", "0,2,1", "f16", {}},
      {"tiled_half2", "1030,130", "1,0", "bf16", {{"stores", "aligned"}}},
      {"tiled_wide", "3,264,136", "0,2,1", "u8", {{"offset", "8"}}},
      {"tiled_wide", "1000,136", "1,0", "f32", {{"stores", "aligned"}}},
      {"tiled_wide", "260,1000", "1,0", "f64", {}}};
  for (const Case& c : cases)
    for (const char* order : {"source", "destination"}) {
      RawParams params = c.extra;
      params.insert(
          {{"shape", c.shape}, {"perm", c.perm}, {"dtype", c.dtype}, {"tile_order", order}});
      const RunResult r = run(c.variant, params);
      const std::string what =
          std::string(c.variant) + " " + c.shape + " " + c.perm + " " + c.dtype + " " + order;
      ASSERT_EQ(r.status, RunStatus::Ok) << what << ": " << r.error;
      EXPECT_EQ(r.verification.relError, 0.0) << what;
      EXPECT_EQ(r.derived.get("tile_order"), order) << what;
    }
}

// Cells a thread that fit with the trial's cells across: 1 and 2, and 4 for 16-bit and 8-byte
// elements 16 across and 4-byte ones either way; bytes 32 across take 1.
const char* cellsPerThread(const std::string& dtype, int trial) {
  const bool wide = trial % 2 == 1;
  if (dtype == "u8") return wide || trial % 4 == 0 ? "1" : "2";
  if (dtype == "f32") return trial % 3 == 0 ? "1" : trial % 3 == 1 ? "2" : "4";
  return trial % 3 == 0 ? "1" : trial % 3 == 1 || wide ? "2" : "4";
}

// Cells of 8-byte rows (16-byte ones for f64): sides of one cell up to several tiles with partial
// ones, batches, u8, f16, bf16, f32 and f64, 16 and 32 cells across, one, two and four cells a
// thread, sources a cell's row into their buffer, stores on the tile and aligned (up to three tall
// tiles down a column; cells of 8-byte rows).
TEST_F(PermuteGpu, WideCellTransposesMatchTheReference) {
  std::mt19937 rng(13);
  const std::int64_t cells[] = {1, 2, 5, 15, 16, 17, 33, 40, 100, 130};
  int checked = 0;
  for (int trial = 0; trial < 24; ++trial) {
    for (const char* dtype : {"u8", "f16", "bf16", "f32", "f64"}) {
      const std::string type = dtype;
      const std::int64_t side = type == "u8" ? 8 : type == "f32" || type == "f64" ? 2 : 4;
      const std::int64_t rows = side * cells[std::uniform_int_distribution<int>(0, 9)(rng)];
      const std::int64_t cols = side * cells[std::uniform_int_distribution<int>(0, 9)(rng)];
      const bool batched = trial % 2 == 1;
      for (const char* stores : {"tile", "aligned"}) {
        if (type == "f64" && std::string(stores) == "aligned") continue;  // 8-byte rows align
        const RawParams params{
            {"shape", (batched ? "3," : "") + std::to_string(rows) + "," + std::to_string(cols)},
            {"perm", batched ? "0,2,1" : "1,0"},
            {"dtype", dtype},
            {"offset", trial % 3 == 0 ? std::to_string(side) : "0"},
            {"cells_across", trial % 2 == 0 ? "16" : "32"},
            {"cells_per_thread", cellsPerThread(dtype, trial)},
            {"stores", stores}};
        const RunResult r = run("tiled_wide", params);
        ASSERT_EQ(r.status, RunStatus::Ok)
            << params.at("shape") << " " << dtype << " stores=" << stores << ": " << r.error;
        EXPECT_EQ(r.verification.relError, 0.0)
            << params.at("shape") << " " << dtype << " " << stores;
        EXPECT_EQ(r.derived.get("stores"), stores);
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 216);
}

// Transposes with a short side both ways round: planes of odd lengths, whose runs start inside
// vectors, batches in order and reordered, sources off vectors, every block size and element
// size, every movement size, and the chunk swizzled or not.
TEST_F(PermuteGpu, NarrowTransposesMatchTheReference) {
  std::mt19937 rng(11);
  const std::int64_t narrows[] = {2, 3, 4, 5, 7, 8, 16, 24, 64};
  const std::int64_t wides[] = {2, 33, 100, 257, 1000, 4099, 65536, 65539};
  int checked = 0;
  for (int trial = 0; trial < 32; ++trial) {
    const std::int64_t narrow = narrows[std::uniform_int_distribution<int>(0, 8)(rng)];
    const std::int64_t wide = wides[std::uniform_int_distribution<int>(0, 7)(rng)];
    const bool planar = trial % 2 == 0;
    const std::string sides = planar ? std::to_string(narrow) + "," + std::to_string(wide)
                                     : std::to_string(wide) + "," + std::to_string(narrow);
    // Unbatched, a batch of 3 in order, 2 x 3 matrices swapped, or 2 x 2 x 2 reversed.
    const int batching = trial % 4 < 2 ? 0 : trial % 4 == 2 ? 1 : trial % 8 == 3 ? 2 : 3;
    const char* batches[] = {"", "3,", "2,3,", "2,2,2,"};
    const char* perms[] = {"1,0", "0,2,1", "1,0,3,2", "2,1,0,4,3"};
    const char* orders[] = {"", "", "1,0", "2,1,0"};
    const std::string shape = batches[batching] + sides;
    const std::string perm = perms[batching];
    const char* block = trial % 3 == 0 ? "64" : trial % 3 == 1 ? "256" : "512";
    const char* offset = trial % 5 == 0 ? "1" : trial % 5 == 1 ? "2" : "0";
    const char* swizzle = trial / 2 % 3 == 0 ? "on" : trial / 2 % 3 == 1 ? "off" : "auto";
    for (const char* dtype : {"u8", "f16", "f32", "f64"}) {
      for (const char* movement : {"auto", "1", "2", "4", "8", "16"}) {
        const RawParams params{{"shape", shape},    {"perm", perm},
                               {"dtype", dtype},    {"block_size", block},
                               {"offset", offset},  {"movement_size", movement},
                               {"swizzle", swizzle}};
        try {
          Registry::instance().resolve("permute", "narrow", params);
        } catch (const Error&) {
          continue;  // a width the plane or the element forbids, said before running
        }
        const RunResult r = run("narrow", params);
        ASSERT_EQ(r.status, RunStatus::Ok)
            << "shape=" << shape << " " << dtype << " block=" << block << " offset=" << offset
            << " m=" << movement << " swizzle=" << swizzle << ": " << r.error;
        if (wide % 2 == 1 && std::string(movement) == "16") {
          EXPECT_EQ(r.derived.get("shifted"), "yes") << shape << " " << dtype;
        }
        if (batching >= 2) {
          EXPECT_EQ(r.derived.get("matrix_order"), orders[batching]) << shape;
        }
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 32 * (6 + 5 + 4 + 3));  // every width from the element's to 16 bytes
}

// Cells in registers: bytes and halves in 2 to 8 planes both ways round, widths of whole words
// that leave a warp's last span of a plane part-filled or empty, batches in order and reordered,
// sources a word in, blocks of 64 to 512 (256 past 5 planes); auto's narrow kernel takes them for
// aligned bytes.
TEST_F(PermuteGpu, NarrowCellsMatchTheReference) {
  const char* wides[] = {"20", "100", "508", "512", "4112", "65540"};
  runCellTrials({"u8", "f16", "bf16"}, [&](int narrow, int trial, bool bytes) {
    // Halves: the same widths in bytes, so as many elements of 2 bytes as fill them.
    std::string wide = wides[(trial + narrow) % 6];
    if (!bytes) wide = std::to_string(std::stoll(wide) / 2 + (trial % 3 == 0 ? 2 : 0));
    return CellTrial{wide, trial % 3 == 1 ? (bytes ? "4" : "2") : "0",
                     trial % 3 == 0                 ? "64"
                     : trial % 3 == 1 || narrow > 5 ? "256"
                                                    : "512"};
  });
  const RunResult r =
      run("auto", {{"shape", "16,3,512,512"}, {"perm", "0,2,3,1"}, {"dtype", "u8"}});
  ASSERT_EQ(r.status, RunStatus::Ok) << r.error;
  EXPECT_EQ(r.derived.get("chosen"), "narrow");
  EXPECT_EQ(r.derived.get("exchange"), "registers");
  EXPECT_EQ(r.verification.relError, 0.0);
}

// Cells shifted into place: widths that are not whole words (the last word of a plane in part,
// runs of the interleaved side that start inside words from one matrix to the next), sources 1 to
// 3 bytes in, spans a warp leaves part-filled, batches in order and reordered, both ways round.
TEST_F(PermuteGpu, NarrowShiftedCellsMatchTheReference) {
  const char* wides[] = {"21", "101", "509", "513", "4111", "65538", "33"};
  runCellTrials({"u8", "f16"}, [&](int narrow, int trial, bool bytes) {
    std::string wide = wides[(trial + narrow) % 7];
    if (!bytes) wide = std::to_string(std::stoll(wide) / 2 * 2 + 1);
    return CellTrial{wide, std::to_string((trial + narrow) % 4), narrow > 5 ? "128" : "512"};
  });
  const RunResult r =
      run("auto", {{"shape", "12,96,3,10001"}, {"perm", "1,0,3,2"}, {"dtype", "u8"}});
  ASSERT_EQ(r.status, RunStatus::Ok) << r.error;
  EXPECT_EQ(r.derived.get("chosen"), "narrow");
  EXPECT_EQ(r.derived.get("shifted"), "yes");
  EXPECT_EQ(r.verification.relError, 0.0);
}

// Destination rows that straddle sectors take aligned stores in auto's tiles (32 wide for 4-byte
// elements, 16 for 8-byte ones but where one tall tile of 32 holds a column, cells and pairs of 64
// destination rows), unless the source's rows or columns are too few to fill them or the tall
// tiles fill no wave of the device (the aligned shapes fill one on GPUs up to 250 SMs).
// Planes in every element size, in blocks small and large, with a batch that leaves the grid's
// last trip short, and auto's choice of them.
TEST_F(PermuteGpu, PlaneTransposesMatchTheReference) {
  const char* shapes[][4] = {{"u8", "37,84,100", "0", "64"},    {"u8", "3000,100,84", "0", "128"},
                             {"u8", "5,4,16", "0", "512"},      {"f16", "9,50,60", "8", "256"},
                             {"f16", "2500,48,80", "0", "128"}, {"bf16", "4,2,8", "0", "64"},
                             {"f32", "41,30,30", "4", "128"},   {"f32", "3,4,4", "0", "256"},
                             {"f64", "19,20,36", "2", "128"},   {"f64", "2,64,64", "0", "512"}};
  for (const auto& [dtype, shape, offset, block] : shapes) {
    const RunResult r = run("planes", {{"shape", shape},
                                       {"perm", "0,2,1"},
                                       {"dtype", dtype},
                                       {"offset", offset},
                                       {"block_size", block}});
    ASSERT_EQ(r.status, RunStatus::Ok) << shape << " " << dtype << ": " << r.error;
    EXPECT_EQ(r.verification.relError, 0.0) << shape << " " << dtype;
  }
  const RunResult r = run("auto", {{"shape", "15978,84,100"}, {"perm", "0,2,1"}, {"dtype", "u8"}});
  ASSERT_EQ(r.status, RunStatus::Ok) << r.error;
  EXPECT_EQ(r.derived.get("chosen"), "planes");
  EXPECT_EQ(r.derived.get("bank_ways"), "1");
  EXPECT_EQ(r.verification.relError, 0.0);
}

// Lines over tiles wider and narrower than the rows (lanes past them idle, or packed), matrices
// shorter than a tile and than the rows above one, batches whose matrices start anywhere in words,
// and sources at odd offsets.
TEST_F(PermuteGpu, LineTransposesMatchTheReference) {
  const char* shapes[][3] = {{"1031,389", "1,0", "0"},
                             {"1677,40", "1,0", "5"},
                             {"5,3,7", "0,2,1", "0"},
                             {"7,300,33", "0,2,1", "3"},
                             {"3,20,129", "0,2,1", "1"},
                             {"3,2", "1,0", "0"},
                             {"2,257,3", "0,2,1", "15"},
                             {"96,2797", "1,0", "7"},
                             {"4,161,65", "0,2,1", "9"},
                             {"40,17,31", "0,2,1", "2"},
                             {"3,700,45", "0,2,1", "11"},
                             {"3,300,100", "0,2,1", "4"},
                             // Any permutation that moves the innermost dimension: columns over
                             // several dimensions, batches the destination spreads.
                             {"23,110,26", "2,1,0", "5"},
                             {"19,4,30,96", "2,1,3,0", "3"},
                             {"3,100,7,77", "0,3,2,1", "1"},
                             {"13,40,15,16", "1,3,2,0", "0"},
                             {"193,11,67", "2,1,0", "9"},
                             {"300,5,9", "2,1,0", "0"},
                             {"2,3,150,4,5", "4,0,3,2,1", "2"},
                             {"6,5,9,4", "3,1,0,2", "13"}};
  // Tiles that cut rows: tile_cols by tile_rows (1, 2 or 4 segments of 128 bytes of each
  // column, 4 only in tile rows of 128 bytes or fewer), and auto's, of bytes and of halves. Where
  // a tile is as wide as the rows or wider it holds them whole, in the segments tile_rows gives.
  using Tiles = std::vector<std::pair<const char*, const char*>>;
  const Tiles bytes = {{"auto", "auto"}, {"32", "128"},  {"32", "256"},
                       {"32", "512"},    {"64", "128"},  {"64", "256"},
                       {"64", "512"},    {"128", "128"}, {"128", "256"}};
  const Tiles halves = {{"auto", "auto"}, {"32", "64"},  {"32", "128"}, {"32", "256"},
                        {"64", "64"},     {"64", "128"}, {"64", "256"}};
  const auto check = [&](const char* dtype, const char* shape, const char* perm, const char* offset,
                         const char* tileCols, const std::string& tileRows) {
    const RunResult r = run("lines", {{"shape", shape},
                                      {"perm", perm},
                                      {"dtype", dtype},
                                      {"offset", offset},
                                      {"tile_cols", tileCols},
                                      {"tile_rows", tileRows}});
    const std::string what = std::string(dtype) + " " + shape + " offset " + offset +
                             " tile_cols " + tileCols + " tile_rows " + tileRows;
    ASSERT_EQ(r.status, RunStatus::Ok) << what << ": " << r.error;
    EXPECT_EQ(r.verification.relError, 0.0) << what;
  };
  for (const auto& [dtype, tiles] : {std::pair{"u8", bytes}, std::pair{"f16", halves}})
    for (const auto& [shape, perm, offset] : shapes)
      for (const auto& [tileCols, tileRows] : tiles)
        check(dtype, shape, perm, offset, tileCols, tileRows);
  // Packed tiles in 1 to 32 segments, as many as 256 threads take: a segment's lanes then share
  // warps with the next's.
  for (const auto& [dtype, elementBytes] : {std::pair{"u8", 1}, std::pair{"f16", 2}})
    for (const auto& [shape, perm, offset] : shapes) {
      std::vector<int> order;
      for (const std::int64_t d : listItems(perm)) order.push_back(static_cast<int>(d));
      auto l = permute::lineLaunchFor(permute::simplify({listItems(shape), order}));
      ASSERT_TRUE(l) << shape;
      l->tileCols = 128 / elementBytes;
      l->elementBytes = elementBytes;
      if (!l->packedRows()) continue;
      for (const int segments : {1, 3, 5, 8, 13, 32})
        if (l->cols * segments <= permute::kMaxLineRowThreads)
          check(dtype, shape, perm, offset, elementBytes == 1 ? "128" : "64",
                std::to_string(segments * permute::kLineSegmentBytes / elementBytes));
    }
}

TEST_F(PermuteGpu, AutoAlignsStoresWhereDestinationRowsStraddleSectors) {
  const auto stores = [&](const char* shape, const char* perm, const char* dtype) {
    const RunResult r = run("auto", {{"shape", shape}, {"perm", perm}, {"dtype", dtype}});
    EXPECT_EQ(r.status, RunStatus::Ok) << shape << " " << dtype << ": " << r.error;
    EXPECT_EQ(r.verification.relError, 0.0) << shape << " " << dtype;
    EXPECT_EQ(r.derived.get("chosen"), "tiled") << shape << " " << dtype;
    return r.derived.get("stores");
  };
  EXPECT_EQ(stores("929,8195", "1,0", "f32"), "aligned");
  EXPECT_EQ(stores("3,929,3075", "0,2,1", "f32"), "aligned");
  EXPECT_EQ(stores("407,8195", "1,0", "f64"), "aligned");
  EXPECT_EQ(stores("95,70000", "1,0", "f64"), "aligned");  // one tall tile a column
  EXPECT_EQ(stores("81,70000", "1,0", "f32"), "aligned");
  EXPECT_EQ(stores("928,8195", "1,0", "f32"), "tile");   // whole sectors
  EXPECT_EQ(stores("100,65539", "1,0", "f32"), "tile");  // tall tiles 3.2 times the rows
  EXPECT_EQ(stores("1097,955", "1,0", "f32"), "tile");   // under a wave of blocks
  const RunResult cells = run("auto", {{"shape", "4104,8192"}, {"perm", "1,0"}, {"dtype", "u8"}});
  EXPECT_EQ(cells.derived.get("chosen"), "tiled_wide");
  EXPECT_EQ(cells.derived.get("stores"), "aligned");
  EXPECT_EQ(cells.verification.relError, 0.0);
  const RunResult pairs = run("auto", {{"shape", "4098,8194"}, {"perm", "1,0"}, {"dtype", "f16"}});
  EXPECT_EQ(pairs.derived.get("chosen"), "tiled_half2");
  EXPECT_EQ(pairs.derived.get("stores"), "aligned");
  EXPECT_EQ(pairs.verification.relError, 0.0);
  EXPECT_EQ(stores("5,5667,37", "0,2,1", "f32"), "tile");  // 37 columns in tiles of 32
}

TEST_F(PermuteGpu, AutoSaysWhatItChose) {
  const auto chosen = [&](const char* shape, const char* perm, const char* dtype = "f32",
                          const char* offset = "0") {
    return run("auto", {{"shape", shape}, {"perm", perm}, {"dtype", dtype}, {"offset", offset}})
        .derived.get("chosen");
  };
  EXPECT_EQ(chosen("64,512,512", "0,2,1"), "tiled_wide");
  EXPECT_EQ(chosen("64,512,511", "0,2,1"), "tiled");
  EXPECT_EQ(chosen("64,512,512", "0,2,1", "bf16"), "tiled_wide");
  EXPECT_EQ(chosen("64,512,512", "0,2,1", "bf16", "2"), "tiled_half2");
  EXPECT_EQ(chosen("64,510,512", "0,2,1", "f16"), "tiled_half2");
  EXPECT_EQ(chosen("64,512,512", "0,2,1", "bf16", "1"), "general");  // cells shifted into place
  EXPECT_EQ(chosen("4097,4097", "1,0", "u8"), "general");
  EXPECT_EQ(chosen("2500,2501", "1,0", "f16"), "general");
  EXPECT_EQ(chosen("2049,2049", "1,0", "u8"), "lines");    // not single bytes in tiles
  EXPECT_EQ(chosen("1025,1025", "1,0", "u8"), "tiled");    // under 3 MB
  EXPECT_EQ(chosen("200003,52", "1,0", "u8"), "general");  // sides of 48 or more
  EXPECT_EQ(chosen("16,3,512,512", "0,2,3,1"), "narrow");
  EXPECT_EQ(chosen("32,128,16,64", "0,2,1,3"), "movement");
  EXPECT_EQ(chosen("16,64,64,8", "0,3,1,2", "u8"), "narrow");  // swizzled: 4 words a bank
  EXPECT_EQ(chosen("16,64,64,3", "0,3,1,2", "u8"), "narrow");
  EXPECT_EQ(chosen("512,512", "1,0", "u8"), "tiled_wide");
  EXPECT_EQ(chosen("516,512", "1,0", "u8"), "general");
  // Planes to channels last: the narrow kernel where whole vectors hold 4 elements or more, or
  // where 16-byte ones shifted into place fill two waves of blocks (on GPUs up to 250 SMs), else
  // the movement kernel (an odd width: single bytes, single floats).
  EXPECT_EQ(chosen("19,140000", "1,0", "f16"), "narrow");
  EXPECT_EQ(chosen("19,140001", "1,0", "u8"), "movement");
  EXPECT_EQ(chosen("19,3400001", "1,0", "u8"), "narrow");
  EXPECT_EQ(chosen("5,3355443", "1,0"), "narrow");
  EXPECT_EQ(chosen("5,3355443", "1,0", "f64"), "movement");  // 2 doubles a vector
  // A short side of 32 to 64 in 16-byte vectors of 2 bytes or wider: the narrow kernel, not
  // tiles; bytes keep their cells.
  EXPECT_EQ(chosen("48,65536", "1,0"), "narrow");
  EXPECT_EQ(chosen("65536,40", "1,0", "f16"), "narrow");
  // 32 to 47 planes of single elements to channels last: the walk, or the narrow kernel's shifted
  // vectors where they fill the device; the other way, tiles, or lines for bytes, and for halves
  // whose planes start inside the narrow kernel's vectors.
  EXPECT_EQ(chosen("5,37,5667", "0,2,1"), "movement");
  EXPECT_EQ(chosen("5,33,406721", "0,2,1", "u8"), "narrow");
  EXPECT_EQ(chosen("5,5667,37", "0,2,1"), "tiled");
  EXPECT_EQ(chosen("2033103,33", "1,0", "u8"), "lines");
  EXPECT_EQ(chosen("2033103,33", "1,0", "f16"), "lines");
  EXPECT_EQ(chosen("1398101,48", "1,0"), "tiled");
  EXPECT_EQ(chosen("48,65536", "1,0", "u8"), "tiled_wide");
  // Channels last to planes: narrow where whole vectors hold 2 elements or more or shifted ones
  // fill the device.
  EXPECT_EQ(chosen("1973790,17", "1,0", "f64"), "narrow");
  EXPECT_EQ(chosen("4194304,16", "1,0", "u8"), "lines");   // where it would swizzle: lines
  EXPECT_EQ(chosen("2097154,16", "1,0", "f16"), "lines");  // planes start inside vectors
  EXPECT_EQ(chosen("3400001,19", "1,0", "u8"), "narrow");
  // A reordered batch of such transposes, of 32 MiB or more: lines, of halves too.
  EXPECT_EQ(chosen("53,5,5275,24", "1,0,3,2", "f16"), "lines");
  // Columns of 3 bytes while the destination goes on along the source's rows: the movement
  // kernel; of 5 bytes over a dimension 49 bytes apart in the source: general tiles.
  EXPECT_EQ(chosen("7,9,3,1500", "1,0,3,2", "u8"), "movement");
  EXPECT_EQ(chosen("5,2739,7,7", "2,3,1,0", "u8"), "general");
  // From 32 MiB on, packed tiles where general tiles would have a side of 48 bytes or fewer, and
  // for bytes the walk would take whose source runs 4 bytes or more.
  EXPECT_EQ(chosen("5,273913,7,7", "2,3,1,0", "u8"), "packed");
  EXPECT_EQ(chosen("100,3,23,120,24", "4,2,0,3,1", "f16"), "packed");
  EXPECT_EQ(chosen("20000,3,100,7", "3,1,0,2", "u8"), "packed");
  EXPECT_EQ(chosen("10000,3,100,7", "3,1,0,2", "u8"), "movement");
  // Rows of 3 to 15 bytes that stay innermost, from 32 MiB on, where the walk would come back to
  // the source's next row down only after 4096 elements or more.
  EXPECT_EQ(chosen("559241,5,3", "1,0,2"), "packed");
  EXPECT_EQ(chosen("466034,6,4,3", "1,2,0,3", "u8"), "packed");
  EXPECT_EQ(chosen("559240,5,3", "1,0,2"), "movement");  // under 32 MiB
  // Back after 312, but packed tiles in words run 156 and 3744 bytes: they beat the walk.
  EXPECT_EQ(chosen("3,2,4,215092,13", "3,2,0,1,4", "u8"), "packed");
  // Bytes from 32 MiB on where general tiles' columns would be 2 to 63 bytes long.
  EXPECT_EQ(chosen("62,135301,4", "2,1,0", "u8"), "packed");
  EXPECT_EQ(chosen("62,135300,4", "2,1,0", "u8"), "general");  // under 32 MiB
  EXPECT_EQ(chosen("70400,9,53", "2,0,1", "u8"), "lines");     // 53-byte rows, 53 planes
  // From 64 MiB on, 65 planes or more (to 128 of bytes, 256 of floats, 160 of doubles) to
  // channels last of 1-, 4- or 8-byte elements whose rows are no whole sectors, and 49 to 64 of
  // bytes: packed tiles.
  EXPECT_EQ(chosen("51,1315872", "1,0", "u8"), "packed");
  EXPECT_EQ(chosen("51,1315856", "1,0", "u8"), "general");  // under 64 MiB
  EXPECT_EQ(chosen("100,167773", "1,0"), "packed");
  EXPECT_EQ(chosen("65,1032445", "1,0", "u8"), "packed");
  EXPECT_EQ(chosen("84,99865", "1,0", "f64"), "tiled");      // rows of whole sectors
  EXPECT_EQ(chosen("127,264209", "1,0", "f16"), "general");  // halves keep shifted cells
  EXPECT_EQ(chosen("167773,100", "1,0"), "tiled");           // channels last to planes
  // Mostly empty general tiles of wide elements: the movement kernel's walk where it reads the
  // source's sectors again soon or reads them densely; general tiles where they fill.
  EXPECT_EQ(chosen("17,5,12,17,202", "1,0,2,4,3"), "movement");
  EXPECT_EQ(chosen("1000,40,26,16,2", "0,4,2,1,3", "f64"), "movement");
  EXPECT_EQ(chosen("54,8,19,5,405,2", "2,4,3,0,5,1", "f64"), "general");
  // Or where the destination, until it comes back, spans few of the source's sectors.
  EXPECT_EQ(chosen("4,571,18,24,3", "1,0,4,3,2", "f16"), "movement");
  // Halves likewise, but where aligned cells fit.
  EXPECT_EQ(chosen("100,21,12,518", "2,0,3,1", "f16"), "movement");
  EXPECT_EQ(chosen("4,3,7,80,1248", "3,4,2,1,0", "f16"), "general");
  // Byte tiles shorter than a cells' tile both ways: aligned words where they fill 0.7 of their
  // tiles, else the walk.
  EXPECT_EQ(chosen("100,60,100", "0,2,1", "u8"), "general");
  EXPECT_EQ(chosen("100,84,100", "0,2,1", "u8"), "movement");
  EXPECT_EQ(chosen("100,84,101", "0,2,1", "u8"), "movement");
  EXPECT_EQ(chosen("2,100,145,73", "1,0,3,2", "u8"), "movement");
  // Shifted cells judged on their own groups: the in group, grown toward the tile's 128 bytes,
  // takes the dimension the out group had, leaving it 23 bytes long, so shifted words.
  const RunResult shortOut =
      run("auto", {{"shape", "76,23,123,78"}, {"perm", "0,3,2,1"}, {"dtype", "u8"}});
  EXPECT_EQ(shortOut.derived.get("access_bytes"), "4");
  const RunResult reversed = run("auto", {{"shape", "3,256,256"}, {"perm", "2,1,0"}});
  EXPECT_EQ(reversed.derived.get("chosen"), "general");
  EXPECT_EQ(reversed.derived.get("groups"), "in 256 | out 3 x 256 | batch 1");
}

// General tiles in 8-byte cells for 1- and 2-byte elements where both groups are whole cells
// and 64 or more long, else in 4-byte words where both are whole words: partial tiles on both
// sides, batches, several groups, sources 8 elements in, and a misaligned source that takes
// shifted words.
TEST_F(PermuteGpu, GeneralTilesMoveCellsOrWordsWhereTheyFit) {
  struct Case {
    const char *shape, *perm, *bytes, *halves;  // the accesses of u8 and of f16, bf16
  };
  const Case cases[] = {{"3,64,100", "2,1,0", "4", "8"},      {"4,100,36", "2,0,1", "4", "4"},
                        {"128,64,64,8", "0,3,1,2", "4", "4"}, {"2,12,20,68", "3,1,0,2", "4", "8"},
                        {"7,8,4,132", "3,2,0,1", "4", "8"},   {"16,516,4", "0,2,1", "4", "4"},
                        {"5,64,136", "2,1,0", "8", "8"},      {"3,256,264", "2,1,0", "8", "8"}};
  for (const auto& c : cases)
    for (const char* dtype : {"u8", "f16", "bf16"})
      for (const char* offset : {"0", "1", "8"}) {
        const RunResult r =
            run("general",
                {{"shape", c.shape}, {"perm", c.perm}, {"dtype", dtype}, {"offset", offset}});
        ASSERT_EQ(r.status, RunStatus::Ok)
            << c.shape << " " << c.perm << " " << dtype << " offset " << offset << ": " << r.error;
        // One element in is never 4-byte aligned for these sizes: bytes in words shifted into
        // place (every case's columns are 8 or more long), halves one at a time.
        const bool misaligned = std::string(offset) == "1";
        const bool u8 = std::string(dtype) == "u8";
        const std::string aligned = u8 ? c.bytes : c.halves;
        EXPECT_EQ(r.derived.get("access_bytes"), misaligned ? (u8 ? "4" : "2") : aligned)
            << c.shape << " " << c.perm << " " << dtype << " " << r.derived.get("groups");
        if (misaligned && u8) {
          EXPECT_EQ(r.derived.get("words"), "shifted");
        }
      }
}

// Groups of odd extents, and sources at any offset, move bytes and halves in shifted words
// where asked: rows longer than a warp's words, columns longer than a warp's blocks (a lane
// takes the block before it from shared memory), groups shorter than a word, partial tiles both
// ways.
TEST_F(PermuteGpu, GeneralTilesShiftWordsWhereRowsStartAnywhere) {
  const OddCase cases[] = {{"3,65,101", "2,1,0"}, {"5,7,3,33", "3,1,0,2"}, {"2,3,4097", "2,1,0"},
                           {"1001,3", "1,0"},     {"3,1001", "1,0"},       {"2,130,67", "0,2,1"},
                           {"7,300,5", "2,1,0"},  {"9,2,515", "2,0,1"}};
  runOddCases(cases, "words", [](const RunResult& r, const std::string& what) {
    EXPECT_EQ(r.derived.get("access_bytes"), "4") << what;
    EXPECT_EQ(r.derived.get("words"), "shifted") << what;
  });
}

// Groups of odd extents, and sources at any offset, move bytes and halves in cells shifted into
// place where asked: rows and columns shorter than a cell, longer than a tile (several tiles each
// way), partial tiles both ways (columns of a last tile ending past its last word), a batch, a
// group grown past a tile's side to fill its tiles, most tiles inside both groups (1031 x 389,
// moved without bounds); and aligned cells where both groups are whole cells.
TEST_F(PermuteGpu, GeneralTilesShiftCellsWhereRowsStartAnywhere) {
  const OddCase cases[] = {{"3,65,101", "2,1,0"},     {"5,7,3,33", "3,1,0,2"},
                           {"2,3,4097", "2,1,0"},     {"1001,3", "1,0"},
                           {"3,1001", "1,0"},         {"2,130,67", "0,2,1"},
                           {"7,300,5", "2,1,0"},      {"9,2,515", "2,0,1"},
                           {"517,263", "1,0"},        {"3,257,389", "0,2,1"},
                           {"5,41,7,131", "3,0,2,1"}, {"509,300", "1,0"},
                           {"255,300", "1,0"},        {"2,139,67,21,7", "4,3,0,2,1"},
                           {"1031,389", "1,0"},       {"3,777,261", "0,2,1"}};
  runOddCases(cases, "cells", [](const RunResult& r, const std::string& what) {
    EXPECT_EQ(r.derived.get("access_bytes"), "8") << what;
    EXPECT_EQ(r.derived.get("cells"), "shifted") << what;
  });
  const RunResult aligned = run(
      "general", {{"shape", "3,256,264"}, {"perm", "2,1,0"}, {"dtype", "u8"}, {"access", "cells"}});
  ASSERT_EQ(aligned.status, RunStatus::Ok) << aligned.error;
  EXPECT_EQ(aligned.derived.get("cells"), "aligned");
  // One side shifted, the other aligned, each moving in its own way: columns of 517 rows (stores
  // shifted, the rows above a tile read aligned), rows of 263 (loads shifted), in several tiles
  // each way and batched.
  const std::tuple<const char*, const char*, const char*> sides[] = {
      {"517,256", "1,0", "stores"},
      {"512,263", "1,0", "loads"},
      {"3,256,517", "0,2,1", "loads"},
      {"2,517,136", "0,2,1", "stores"}};
  for (const auto& [shape, perm, side] : sides)
    for (const char* dtype : {"u8", "f16"}) {
      const RunResult r =
          run("general", {{"shape", shape}, {"perm", perm}, {"dtype", dtype}, {"access", "cells"}});
      ASSERT_EQ(r.status, RunStatus::Ok) << shape << " " << dtype << ": " << r.error;
      EXPECT_EQ(r.verification.relError, 0.0) << shape << " " << dtype;
      EXPECT_EQ(r.derived.get("shifted_sides"), side) << shape << " " << dtype;
    }
}

// Cells whose columns start anywhere in a sector, stored from the sector boundary at or before
// each tile's first row: the same odd groups and offsets, columns a sector or more apart (1000
// rows: whole cells, loads aligned), columns ending in a last tile past its window's last word,
// most tiles inside both groups (1031 x 389, moved without bounds).
TEST_F(PermuteGpu, GeneralCellsStoreWholeSectorsWhereColumnsStartInsideOne) {
  const OddCase cases[] = {{"3,65,101", "2,1,0"},      {"2,3,4097", "2,1,0"},
                           {"1001,3", "1,0"},          {"3,1001", "1,0"},
                           {"517,263", "1,0"},         {"3,257,389", "0,2,1"},
                           {"5,41,7,131", "3,0,2,1"},  {"1000,136", "1,0"},
                           {"255,300", "1,0"},         {"2,139,67,21,7", "4,3,0,2,1"},
                           {"3,1000,6,16", "2,1,3,0"}, {"24,4,16,323", "3,2,1,0"},
                           {"1031,389", "1,0"},        {"3,777,261", "0,2,1"}};
  runOddCases(cases, "cells",
              [](const RunResult& r, const std::string& what) {
                EXPECT_EQ(r.derived.get("access_bytes"), "8") << what;
                EXPECT_EQ(r.derived.get("stores"), "aligned") << what;
              },
              {{"stores", "aligned"}});
}

// auto's access: cells shifted into place where both groups are 48 or more long and the tensor
// 8 MiB or more; else bytes in shifted words where columns are 8
// or more long, else one at a time; halves whose rows start on no word one at a time; and elements
// where asked.
TEST_F(PermuteGpu, GeneralTilesShiftBytesInColumnsOfTwoWordsOrMore) {
  const auto access = [&](const char* shape, const char* perm, const char* dtype,
                          const char* given = "auto") {
    const RunResult r =
        run("general", {{"shape", shape}, {"perm", perm}, {"dtype", dtype}, {"access", given}});
    EXPECT_EQ(r.status, RunStatus::Ok) << shape << " " << dtype << ": " << r.error;
    EXPECT_EQ(r.verification.relError, 0.0);
    return r.derived.get("access_bytes");
  };
  EXPECT_EQ(access("9,1300,731", "2,1,0", "u8"), "8");
  EXPECT_EQ(access("5,1300,671", "2,1,0", "f16"), "8");
  EXPECT_EQ(access("5,130,674", "2,1,0", "f16"), "4");  // aligned pairs, under 8 MiB
  EXPECT_EQ(access("9,130,67", "2,1,0", "u8"), "4");
  EXPECT_EQ(access("5,2739,49", "2,1,0", "u8"), "1");
  EXPECT_EQ(access("9,130,67", "2,1,0", "f16"), "2");
  EXPECT_EQ(access("9,130,67", "2,1,0", "u8", "elements"), "1");
  EXPECT_EQ(access("8,128,64", "2,1,0", "f16", "words"), "4");
}

// Rows of 2, 4 or 8 bytes that stay innermost move through general tiles as elements: a u8
// pair as a 16-bit element (in words), four f16 as one 8-byte element; misaligned, as units of
// their bytes.
TEST_F(PermuteGpu, GeneralTilesMoveShortRowsAsElements) {
  const RunResult pairs = run("general", {{"shape", "6,40,2"}, {"perm", "1,0,2"}, {"dtype", "u8"}});
  ASSERT_EQ(pairs.status, RunStatus::Ok) << pairs.error;
  EXPECT_EQ(pairs.derived.get("row_bytes"), "2");
  EXPECT_EQ(pairs.derived.get("access_bytes"), "4");
  const RunResult quads =
      run("general", {{"shape", "3,70,5,4"}, {"perm", "2,0,1,3"}, {"dtype", "f16"}});
  ASSERT_EQ(quads.status, RunStatus::Ok) << quads.error;
  EXPECT_EQ(quads.derived.get("row_bytes"), "8");
  EXPECT_EQ(run("auto", {{"shape", "64,4096,2"}, {"perm", "1,0,2"}, {"dtype", "u8"}})
                .derived.get("chosen"),
            "general");
  // Rows of 2 bytes from an odd byte: units of their bytes.
  const RunResult odd =
      run("general", {{"shape", "6,40,2"}, {"perm", "1,0,2"}, {"dtype", "u8"}, {"offset", "1"}});
  ASSERT_EQ(odd.status, RunStatus::Ok) << odd.error;
  EXPECT_EQ(odd.derived.get("rows"), "bytes");
}

// Rows of lengths no element gives, 3 to 512 bytes, in tiles that the groups fill whole or in
// part (and tiles made shorter to fit shared memory), sources 0, 1, 3 and 6 elements in, each
// side's run starting on any byte of its words.
TEST_F(PermuteGpu, GeneralTilesMoveRowsOfAnyLengthAsUnits) {
  struct Case {
    const char* shape;
    const char* perm;
    const char* dtype;
    const char* rowBytes;
  };
  const Case cases[] = {
      {"64,100,3", "1,0,2", "u8", "3"},
      {"3000,3,3", "1,0,2", "u8", "3"},  // tiles 1024 tall would not fit
      {"47,380,15", "1,0,2", "u8", "15"},
      {"19,101,2,10,7,5", "1,2,4,3,0,5", "f16", "10"},
      {"3,2,4,1500,13", "3,2,0,1,4", "u8", "13"},
      {"37,25,126,57", "2,1,0,3", "u8", "57"},
      {"17,20,17,8,29", "3,1,0,2,4", "f16", "58"},
      {"35,119,3", "1,0,2", "f64", "24"},
      {"3,117,61,157", "2,1,0,3", "f16", "314"},
      {"9,70,128", "1,0,2", "f32", "512"},
      {"4,41,100,19,3", "2,0,3,1,4", "f16", "6"},
  };
  for (const Case& c : cases)
    for (const char* offset : {"0", "1", "3", "6"})
      for (const char* tileIn : {"auto", "4"}) {
        const std::string what = std::string(c.shape) + " " + c.perm + " " + c.dtype + " offset " +
                                 offset + " tile_in " + tileIn;
        const RunResult r = run("general", {{"shape", c.shape},
                                            {"perm", c.perm},
                                            {"dtype", c.dtype},
                                            {"offset", offset},
                                            {"tile_in", tileIn}});
        ASSERT_EQ(r.status, RunStatus::Ok) << what << ": " << r.error;
        EXPECT_EQ(r.verification.relError, 0.0) << what;
        EXPECT_EQ(r.derived.get("rows"), "bytes") << what;
        EXPECT_EQ(r.derived.get("row_bytes"), c.rowBytes) << what;
      }
}

// The benchmark's cases at a smaller batch, every movement size the shape allows.
TEST_F(PermuteGpu, BenchmarkShapesInEveryMovementSize) {
  const std::pair<const char*, const char*> cases[] = {
      {"4,128,16,64", "0,2,1,3"},  {"4,512,512", "0,2,1"},     {"1024,1024", "1,0"},
      {"4,64,128,128", "2,3,0,1"}, {"2,3,512,512", "0,2,3,1"}, {"2,512,512,3", "0,3,1,2"}};
  for (const auto& [shape, perm] : cases) {
    for (const char* movement : {"auto", "2", "4", "8", "16"}) {
      RawParams params{
          {"shape", shape}, {"perm", perm}, {"dtype", "f16"}, {"movement_size", movement}};
      try {
        Registry::instance().resolve("permute", "movement", params);
      } catch (const Error&) {
        continue;  // a width this shape forbids, said before running
      }
      const RunResult r = run("movement", params);
      ASSERT_EQ(r.status, RunStatus::Ok)
          << shape << " " << perm << " m=" << movement << ": " << r.error;
    }
  }
}

// 2^31 + 2^20 one-byte elements: past 32-bit offsets (too large for memcheck's pace).
TEST_F(PermuteGpu, WideIndicesPastTwoToThe31) {
  const RunResult wide =
      run("simplified", {{"shape", "2049,1048576"}, {"perm", "1,0"}, {"dtype", "u8"}});
  ASSERT_EQ(wide.status, RunStatus::Ok) << wide.error;
  EXPECT_EQ(wide.derived.get("index_bits"), "64");
  const RunResult narrow =
      run("narrow",
          {{"shape", "3,715827883"}, {"perm", "1,0"}, {"dtype", "u8"}, {"exchange", "shared"}});
  ASSERT_EQ(narrow.status, RunStatus::Ok) << narrow.error;
  EXPECT_EQ(narrow.derived.get("index_bits"), "64");
  const RunResult cells =
      run("narrow", {{"shape", "3,715827883"}, {"perm", "1,0"}, {"dtype", "u8"}});
  ASSERT_EQ(cells.status, RunStatus::Ok) << cells.error;
  EXPECT_EQ(cells.derived.get("shifted"), "yes");  // cells index in 64 bits throughout
  const RunResult rows =
      run("movement",
          {{"shape", "1024,2,1048583"}, {"perm", "1,0,2"}, {"dtype", "u8"}, {"walk", "rows"}});
  ASSERT_EQ(rows.status, RunStatus::Ok) << rows.error;
  EXPECT_EQ(rows.derived.get("index_bits"), "64");
  const RunResult aligned = run("tiled", {{"shape", "2049,1048577"},
                                          {"perm", "1,0"},
                                          {"dtype", "u8"},
                                          {"tile_size", "32"},
                                          {"stores", "aligned"}});
  ASSERT_EQ(aligned.status, RunStatus::Ok) << aligned.error;
  EXPECT_EQ(aligned.derived.get("index_bits"), "64");
  const RunResult general =
      run("general", {{"shape", "2,3,357913942"}, {"perm", "2,1,0"}, {"dtype", "u8"}});
  ASSERT_EQ(general.status, RunStatus::Ok) << general.error;
  EXPECT_EQ(general.derived.get("index_bits"), "64");
  const RunResult packed =
      run("packed", {{"shape", "5,61356676,7"}, {"perm", "2,1,0"}, {"dtype", "u8"}});
  ASSERT_EQ(packed.status, RunStatus::Ok) << packed.error;
  EXPECT_EQ(packed.derived.get("index_bits"), "64");
}

}  // namespace
}  // namespace kwb
