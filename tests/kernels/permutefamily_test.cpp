// The permute family's checks: what each variant rejects before anything runs, and why.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/error.h"
#include "kernels/h100device.h"
#include "kernels/permute/linetranspose.h"
#include "kernels/permute/narrowtranspose.h"
#include "kernels/permute/planetranspose.h"
#include "kernels/registry.h"

namespace kwb {
namespace {

// The rejected parameter and the message, or "accepted".
std::pair<std::string, std::string> verdict(const std::string& variant, const RawParams& params) {
  try {
    Registry::instance().resolve("permute", variant, params);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Param) << e.what();
    return {e.param(), e.what()};
  }
  return {"accepted", ""};
}

// The verdicts of `variant` on transposes `perm`: of a shape in a dtype, its source `offset`
// elements in.
auto transposeVerdicts(const char* variant, const char* perm) {
  return [=](const char* shape, const char* dtype, const char* offset = "0") {
    return verdict(variant,
                   {{"shape", shape}, {"perm", perm}, {"dtype", dtype}, {"offset", offset}});
  };
}

bool says(const std::pair<std::string, std::string>& v, const std::string& param,
          const std::string& text) {
  return v.first == param && v.second.find(text) != std::string::npos;
}

TEST(PermuteFamily, EveryVariantAcceptsItsDefaults) {
  for (const auto& variant : Registry::instance().family("permute").variants)
    EXPECT_EQ(verdict(variant.name, {}).first, "accepted") << variant.name;
}

TEST(PermuteFamily, EveryVariantRejectsARepeatedAxis) {
  for (const auto& variant : Registry::instance().family("permute").variants)
    EXPECT_TRUE(says(verdict(variant.name, {{"shape", "4,4"}, {"perm", "0,0"}}), "perm",
                     "axis 0 is repeated"))
        << variant.name;
}

TEST(PermuteFamily, ShapesPastTwoToThe40ElementsAreRejected) {
  EXPECT_TRUE(says(verdict("auto", {{"shape", "1048576,1048576,2"}, {"perm", "2,1,0"}}), "shape",
                   "more than 2^40 elements"));
}

TEST(PermuteFamily, TiledKernelsTakeTransposesOnly) {
  EXPECT_TRUE(says(verdict("tiled", {{"shape", "64,64,128,128"}, {"perm", "2,3,0,1"}}), "accepted",
                   ""));  // simplifies to a (4096, 16384) transpose
  EXPECT_TRUE(says(verdict("tiled", {{"shape", "32,128,16,64"}, {"perm", "0,2,1,3"}}), "perm",
                   "use movement or auto"));
  EXPECT_TRUE(says(verdict("tiled_half2", {{"shape", "33,64"}, {"perm", "1,0"}, {"dtype", "f16"}}),
                   "shape", "both sides of the transpose even"));
  EXPECT_TRUE(says(verdict("tiled_half2", {{"shape", "32,64"}, {"perm", "1,0"}, {"dtype", "f32"}}),
                   "dtype", "allowed: f16, bf16"));
  EXPECT_TRUE(
      says(verdict("tiled", {{"tile_size", "16"}, {"rows_per_block", "16"}}), "accepted", ""));
}

TEST(PermuteFamily, TiledWideTakesWholeCellsOfEveryElementSize) {
  const auto wide = transposeVerdicts("tiled_wide", "1,0");
  EXPECT_TRUE(says(wide("40,64", "u8"), "accepted", ""));
  EXPECT_TRUE(says(wide("36,64", "u8"), "shape", "multiples of 8"));
  EXPECT_TRUE(says(wide("36,64", "f16"), "accepted", ""));
  EXPECT_TRUE(says(wide("34,64", "bf16"), "shape", "multiples of 4"));
  EXPECT_TRUE(says(wide("34,64", "f32"), "accepted", ""));
  EXPECT_TRUE(says(wide("33,64", "f32"), "shape", "multiples of 2"));
  EXPECT_TRUE(says(wide("32,64", "f64"), "accepted", ""));
  EXPECT_TRUE(says(wide("32,64", "f64", "1"), "offset", "not 16-byte aligned"));
  RawParams aligned{{"dtype", "f64"}, {"stores", "aligned"}};
  EXPECT_TRUE(says(verdict("tiled_wide", aligned), "stores", "cells of f64 have 16-byte rows"));
  EXPECT_TRUE(says(
      verdict("tiled_wide", {{"cells_across", "32"}, {"cells_per_thread", "4"}, {"dtype", "f32"}}),
      "accepted", ""));
  EXPECT_TRUE(says(wide("32,64", "u8", "8"), "accepted", ""));
  EXPECT_TRUE(says(wide("32,64", "f16", "2"), "offset", "not 8-byte aligned"));
  EXPECT_TRUE(says(verdict("tiled_wide", {{"cells_per_thread", "4"}}), "cells_per_thread",
                   "allowed with 16 across: 1, 2"));
  EXPECT_TRUE(says(verdict("tiled_wide", {{"cells_across", "32"}, {"cells_per_thread", "2"}}),
                   "cells_per_thread", "a tile of 64 KiB of u8"));
  EXPECT_TRUE(says(verdict("tiled_wide", {{"cells_across", "32"}, {"cells_per_thread", "1"}}),
                   "accepted", ""));
  EXPECT_TRUE(says(verdict("tiled_wide", {{"cells_per_thread", "4"}, {"dtype", "f16"}}),
                   "cells_per_thread", "allowed with 32 across: 1, 2"));
  EXPECT_TRUE(says(
      verdict("tiled_wide", {{"cells_across", "16"}, {"cells_per_thread", "4"}, {"dtype", "f16"}}),
      "accepted", ""));
  EXPECT_TRUE(says(verdict("tiled_wide", {{"shape", "32,128,16,64"}, {"perm", "0,2,1,3"}}), "perm",
                   "use movement or auto"));
}

TEST(PermuteFamily, MovementSizesTheShapeForbidsAreRejectedWithTheWidestAllowed) {
  const RawParams rows{{"shape", "32,128,16,6"}, {"perm", "0,2,1,3"}, {"dtype", "f16"}};
  RawParams forced = rows;
  forced["movement_size"] = "4";
  EXPECT_TRUE(says(verdict("movement", forced), "accepted", ""));  // rows of 12 bytes
  forced["movement_size"] = "8";
  EXPECT_TRUE(says(verdict("movement", forced), "movement_size", "allowed: up to 4 or auto"));
  forced["movement_size"] = "1";
  EXPECT_TRUE(says(verdict("movement", forced), "movement_size", "less than one f16 element"));
  EXPECT_TRUE(
      says(verdict("movement",
                   {{"shape", "16,3,512,512"}, {"perm", "0,2,3,1"}, {"movement_size", "16"}}),
           "movement_size", "the innermost dimension moves"));
}

// A row walk needs rows of 5 units or more, counted in the units the movement takes: rows of 12
// bytes are 3 units of 4 bytes, 6 of 2.
TEST(PermuteFamily, TheRowWalkTakesRowsOfFiveUnitsOrMore) {
  RawParams rows{{"shape", "32,128,16,6"}, {"perm", "0,2,1,3"}, {"dtype", "f16"}, {"walk", "rows"}};
  EXPECT_TRUE(says(verdict("movement", rows), "walk", "rows of 3 units"));
  rows["movement_size"] = "2";
  EXPECT_TRUE(says(verdict("movement", rows), "accepted", ""));
  EXPECT_TRUE(says(verdict("movement", {{"shape", "6,4,3"}, {"perm", "0,2,1"}, {"walk", "rows"}}),
                   "walk", "shorter than the 5"));
}

// The moves a thread of `variant`'s walk keeps in flight on an H100.
std::string movesPerThread(const char* variant, const char* shape, const char* perm,
                           const char* dtype) {
  const RawParams params{{"shape", shape}, {"perm", perm}, {"dtype", dtype}};
  const Variant& v = Registry::instance().find("permute", variant);
  return v.create(Registry::instance().resolve("permute", variant, params), h100())
      ->derived()
      .get("moves_per_thread");
}

TEST(PermuteFamily, TheWalkGoesDeepForHalvesAndFloatsWhereTheGridStillFillsTheDevice) {
  EXPECT_EQ(movesPerThread("movement", "1000,4,5,5,127", "3,0,2,4,1", "f16"), "16");
  EXPECT_EQ(movesPerThread("movement", "3,20,170,25,29", "3,1,0,2,4", "f16"), "8");  // rows
  EXPECT_EQ(movesPerThread("movement", "14,96,24,3,97", "2,1,0,4,3", "f32"), "8");
  EXPECT_EQ(movesPerThread("movement", "14,96,24,3,97", "2,1,0,4,3", "u8"), "4");
  // 4325376 halves make 270336 threads of 16, the H100's 132 x 2048; 4325358 make one fewer.
  EXPECT_EQ(movesPerThread("movement", "1441792,3", "1,0", "f16"), "16");
  EXPECT_EQ(movesPerThread("movement", "1441786,3", "1,0", "f16"), "4");
  EXPECT_EQ(movesPerThread("simplified", "1000,4,5,5,127", "3,0,2,4,1", "f16"), "4");
}

// The order `variant`'s tiles are taken in on an H100.
std::string tileOrder(const char* variant, const RawParams& params) {
  const Variant& v = Registry::instance().find("permute", variant);
  return v.create(Registry::instance().resolve("permute", variant, params), h100())
      ->derived()
      .get("tile_order");
}

TEST(PermuteFamily, TilesTakeTheDestinationsOrderWhereItLeavesTheSourcesRunsLong) {
  const RawParams square{{"shape", "8192,8192"}, {"perm", "1,0"}, {"dtype", "f32"}};
  EXPECT_EQ(tileOrder("auto", square), "destination");
  EXPECT_EQ(tileOrder("auto", {{"shape", "87,6,64280"}, {"perm", "2,1,0"}, {"dtype", "f32"}}),
            "destination");
  const RawParams tall{{"shape", "291,325,59,12"}, {"perm", "2,3,0,1"}, {"dtype", "f32"}};
  EXPECT_EQ(tileOrder("auto", tall), "source");
  EXPECT_EQ(
      tileOrder("auto", {{"shape", "894784,3,4,5,5"}, {"perm", "1,4,2,3,0"}, {"dtype", "u8"}}),
      "source");
  RawParams given = square;
  given["tile_order"] = "source";
  EXPECT_EQ(tileOrder("tiled_wide", given), "source");
  given = tall;
  given["tile_order"] = "destination";
  EXPECT_EQ(tileOrder("general", given), "destination");
}

TEST(PermuteFamily, AlignedStoresTakeTilesOf16Or32OrTheirOwn) {
  RawParams p{{"shape", "929,1031"}, {"perm", "1,0"}, {"stores", "aligned"}};
  EXPECT_TRUE(says(verdict("tiled", p), "stores", "tiles of 16 or 32; tile_size is 64"));
  p["tile_size"] = "32";
  EXPECT_TRUE(says(verdict("tiled", p), "accepted", ""));
  const RawParams pairs{
      {"shape", "930,1032"}, {"perm", "1,0"}, {"dtype", "f16"}, {"stores", "aligned"}};
  EXPECT_TRUE(says(verdict("tiled_half2", pairs), "accepted", ""));  // their own tiles
}

TEST(PermuteFamily, GeneralAlignedStoresTakeWideUnitsOrCells) {
  RawParams p{{"shape", "1000,136"},
              {"perm", "1,0"},
              {"dtype", "u8"},
              {"stores", "aligned"},
              {"access", "words"}};
  EXPECT_TRUE(says(verdict("general", p), "stores", "move 1-byte units in words"));
  p["access"] = "cells";
  EXPECT_TRUE(says(verdict("general", p), "accepted", ""));
  p["dtype"] = "f32";
  p["access"] = "elements";
  EXPECT_TRUE(says(verdict("general", p), "accepted", ""));
}

TEST(PermuteFamily, AnOffsetSourceNarrowsOrForbidsWideAccesses) {
  const RawParams rows{{"shape", "32,128,16,64"}, {"perm", "0,2,1,3"}, {"dtype", "f32"}};
  RawParams p = rows;
  p["offset"] = "2";  // 8 bytes in
  p["movement_size"] = "8";
  EXPECT_TRUE(says(verdict("movement", p), "accepted", ""));
  p["movement_size"] = "16";
  EXPECT_TRUE(says(verdict("movement", p), "movement_size",
                   "the source starts 8 bytes into its buffer (offset 2), so 16-byte accesses "
                   "would be misaligned; allowed: up to 8 or auto"));
  const RawParams half{{"shape", "64,64"}, {"perm", "1,0"}, {"dtype", "f16"}, {"offset", "1"}};
  EXPECT_TRUE(says(verdict("tiled_half2", half), "offset", "allowed: even offsets"));
  EXPECT_TRUE(says(verdict("tiled", half), "accepted", ""));
  // The narrow kernel's runs start anywhere: shifted into place.
  EXPECT_TRUE(
      says(verdict("narrow",
                   {{"shape", "3,4096"}, {"perm", "1,0"}, {"offset", "3"}, {"movement_size", "8"}}),
           "accepted", ""));
}

TEST(PermuteFamily, GeneralAccessTakesWordsAndCellsForBytesAndHalvesOnly) {
  const RawParams reversal{{"shape", "3,64,100"}, {"perm", "2,1,0"}};
  const auto with = [&](const char* dtype, const char* access, const char* offset = "0") {
    RawParams p = reversal;
    p["dtype"] = dtype;
    p["access"] = access;
    p["offset"] = offset;
    return verdict("general", p);
  };
  EXPECT_EQ(with("f32", "elements").first, "accepted");
  EXPECT_TRUE(says(with("f32", "words"), "access", "f32 elements; allowed: elements or auto"));
  EXPECT_TRUE(says(with("f64", "cells"), "access", "allowed: elements or auto"));
  EXPECT_EQ(with("u8", "words", "3").first, "accepted");  // shifted into place
  EXPECT_EQ(with("f16", "cells").first, "accepted");
  EXPECT_EQ(with("u8", "cells").first, "accepted");  // rows of 100 bytes: shifted into place
  EXPECT_EQ(with("f16", "cells", "2").first, "accepted");
  RawParams p = reversal;
  p["dtype"] = "u8";
  p["access"] = "cells";
  p["tile_in"] = "32";
  EXPECT_TRUE(says(verdict("general", p), "tile_in", "tiles of cells take their own sides"));
  p["access"] = "words";
  EXPECT_EQ(verdict("general", p).first, "accepted");
}

TEST(PermuteFamily, GeneralTakesRowsThatStayInnermostUpTo512Bytes) {
  RawParams p{{"shape", "40,300,128"}, {"perm", "1,0,2"}, {"dtype", "f32"}};
  EXPECT_EQ(verdict("general", p).first, "accepted");  // rows of 512 bytes
  p["shape"] = "40,300,129";
  EXPECT_TRUE(says(verdict("general", p), "perm", "tiles take rows of up to 512 bytes"));
  p = {{"shape", "40,300,15"}, {"perm", "1,0,2"}, {"dtype", "u8"}, {"access", "words"}};
  EXPECT_TRUE(says(verdict("general", p), "access", "rows of 15 bytes"));
  p.erase("access");
  p["stores"] = "aligned";
  EXPECT_TRUE(says(verdict("general", p), "stores", "allowed: tile or auto"));
  p.erase("stores");
  p["tile_in"] = "256";  // 1024 rows of 15 bytes a tile
  EXPECT_EQ(verdict("general", p).first, "accepted");
  p["shape"] = "40,300,100";  // 128 a tile
  EXPECT_TRUE(says(verdict("general", p), "tile_in", "128 of them a tile"));
}

TEST(PermuteFamily, PackedTilesHoldEightPositionsAThreadAndCutOneDimension) {
  const RawParams reversal{{"shape", "5,273913,7,7"}, {"perm", "2,3,1,0"}, {"dtype", "u8"}};
  EXPECT_TRUE(says(verdict("packed", reversal), "accepted", ""));
  RawParams small = reversal;
  small["block_size"] = "256";
  EXPECT_TRUE(says(verdict("packed", small), "tile_elements",
                   "more than the 8 a thread holds; allowed: 2048 or fewer"));
  small["tile_elements"] = "2048";
  EXPECT_TRUE(says(verdict("packed", small), "accepted", ""));
  // Both sides' innermost dimensions longer than a tile: packed tiles would cut two.
  EXPECT_TRUE(says(verdict("packed", {{"shape", "5000,5000"}, {"perm", "1,0"}}), "shape",
                   "packed tiles cut one: use general or auto"));
}

TEST(PermuteFamily, PackedWordsNeedWholeWordsOnBothSides) {
  RawParams params{
      {"shape", "1278,3,100,7"}, {"perm", "3,1,0,2"}, {"dtype", "u8"}, {"access", "words"}};
  EXPECT_TRUE(says(verdict("packed", params), "accepted", ""));
  params["offset"] = "3";
  EXPECT_TRUE(says(verdict("packed", params), "access",
                   "no whole words of 4, 8 or 16 bytes (two elements or more) on both sides"));
  params["access"] = "elements";
  EXPECT_TRUE(says(verdict("packed", params), "accepted", ""));
  // Past 2^31 elements indices take 64 bits, which words do not.
  const RawParams huge{
      {"shape", "2048,3,100,3500"}, {"perm", "3,1,0,2"}, {"dtype", "u8"}, {"access", "words"}};
  EXPECT_TRUE(says(verdict("packed", huge), "access", "more than 2^31 - 1 elements"));
}

// Cells in registers take bytes and halves in 2 to 8 planes of any width from any source, and move
// words: the shared exchange's vectors do not apply.
TEST(PermuteFamily, NarrowCellsSayWhatTheyTake) {
  const auto narrow = [](const char* shape, const char* dtype, const char* offset,
                         const char* extra = nullptr, const char* value = nullptr) {
    RawParams p{{"shape", shape},
                {"perm", "1,0"},
                {"dtype", dtype},
                {"offset", offset},
                {"exchange", "registers"}};
    if (extra) p[extra] = value;
    return verdict("narrow", p);
  };
  EXPECT_TRUE(says(narrow("3,1000", "u8", "0"), "accepted", ""));
  EXPECT_TRUE(says(narrow("1000,8", "f16", "2"), "accepted", ""));
  EXPECT_TRUE(says(narrow("3,1001", "u8", "0"), "accepted", ""));
  EXPECT_TRUE(says(narrow("3,1000", "u8", "1"), "accepted", ""));
  EXPECT_TRUE(says(narrow("1001,7", "f16", "1"), "accepted", ""));
  EXPECT_TRUE(says(narrow("9,1000", "u8", "0"), "exchange", "2 to 8 planes"));
  EXPECT_TRUE(says(narrow("3,1000", "f32", "0"), "exchange", "bytes and halves"));
  EXPECT_TRUE(
      says(narrow("3,1000", "u8", "0", "movement_size", "4"), "movement_size", "exchange=shared"));
  EXPECT_TRUE(says(narrow("3,1000", "u8", "0", "swizzle", "on"), "swizzle", "exchange=shared"));
  EXPECT_TRUE(says(narrow("5,1000", "u8", "0", "block_size", "512"), "accepted", ""));
  EXPECT_TRUE(says(narrow("6,1000", "u8", "0", "block_size", "512"), "block_size", "past 48"));
}

TEST(PermuteFamily, NarrowTakesTransposesWithAShortSide) {
  EXPECT_TRUE(
      says(verdict("narrow", {{"shape", "16,3,512,512"}, {"perm", "0,2,3,1"}}), "accepted", ""));
  EXPECT_TRUE(
      says(verdict("narrow", {{"shape", "16,512,512,3"}, {"perm", "0,3,1,2"}}), "accepted", ""));
  EXPECT_TRUE(says(verdict("narrow", {{"shape", "65,1000"}, {"perm", "1,0"}}), "shape",
                   "a side of at most 64"));
  EXPECT_TRUE(says(verdict("narrow", {{"shape", "3,5,7"}, {"perm", "2,1,0"}}), "perm",
                   "use movement or auto"));
  EXPECT_TRUE(says(verdict("narrow", {{"shape", "78,96,3,5974"}, {"perm", "1,0,3,2"}}), "accepted",
                   ""));  // the batch reordered
  EXPECT_TRUE(says(verdict("narrow", {{"shape", "4,5,6,100"}, {"perm", "2,0,1,3"}}), "perm",
                   "the batch in any order"));
  EXPECT_TRUE(
      says(verdict("narrow", {{"shape", "3,1001"}, {"perm", "1,0"}, {"movement_size", "8"}}),
           "accepted", ""));  // planes of an odd width, shifted into place
  EXPECT_TRUE(
      says(verdict("narrow", {{"shape", "3,1001"}, {"perm", "1,0"}, {"movement_size", "2"}}),
           "movement_size", "narrower than an element; allowed: 4 to 16, or auto"));
}

TEST(PermuteFamily, PlanesTakeBatchesOfWholeVectorPlanesThatFitSharedMemory) {
  const auto planes = transposeVerdicts("planes", "0,2,1");
  EXPECT_TRUE(says(planes("15978,84,100", "u8"), "accepted", ""));
  EXPECT_TRUE(says(planes("7,20,36", "f64"), "accepted", ""));
  EXPECT_TRUE(says(planes("7,84,102", "u8"), "shape", "whole 16-byte vectors"));
  EXPECT_TRUE(says(planes("7,200,250", "u8"), "shape", "at most 49152 bytes"));
  EXPECT_TRUE(says(planes("7,82,104", "u8"), "shape", "no whole 4-byte words"));
  EXPECT_TRUE(says(planes("7,84,100", "u8", "3"), "offset", "not 16-byte aligned"));
  EXPECT_TRUE(says(planes("7,84,100", "f16", "8"), "accepted", ""));
  EXPECT_TRUE(says(verdict("planes", {{"shape", "3,5,7"}, {"perm", "2,1,0"}}), "perm",
                   "use movement or auto"));
}

TEST(PermuteFamily, LinesTakePermutationsOfBytesAndHalvesThatMoveTheInnermostDimension) {
  const auto lines = transposeVerdicts("lines", "0,2,1");
  EXPECT_TRUE(says(lines("8,161319,52", "u8"), "accepted", ""));
  EXPECT_TRUE(says(lines("3,1031,389", "u8", "7"), "accepted", ""));
  EXPECT_TRUE(says(lines("3,1031,389", "f16"), "accepted", ""));
  EXPECT_TRUE(says(lines("3,1031,389", "bf16", "3"), "accepted", ""));
  EXPECT_TRUE(says(lines("3,1031,389", "f32"), "dtype", "allowed: u8, f16, bf16"));
  EXPECT_TRUE(says(lines("2,1073741825,2", "u8"), "shape", "sides of at most 2^30"));
  EXPECT_TRUE(says(lines("2,536870913,2", "f16"), "shape", "sides of at most 2^30"));
  const auto tiles = [](const char* dtype, const char* cols, const char* rows) {
    return verdict("lines", {{"shape", "3,1031,389"},
                             {"perm", "0,2,1"},
                             {"dtype", dtype},
                             {"tile_cols", cols},
                             {"tile_rows", rows}});
  };
  EXPECT_TRUE(says(tiles("u8", "64", "512"), "accepted", ""));
  EXPECT_TRUE(says(tiles("u8", "128", "512"), "tile_rows", "4 only where"));
  EXPECT_TRUE(says(tiles("u8", "64", "64"), "tile_rows", "segments of 128 rows of bytes"));
  EXPECT_TRUE(says(tiles("f16", "64", "256"), "accepted", ""));
  EXPECT_TRUE(says(tiles("f16", "32", "64"), "accepted", ""));
  EXPECT_TRUE(says(tiles("f16", "64", "512"), "tile_rows", "segments of 64 rows of halves"));
  EXPECT_TRUE(says(tiles("f16", "128", "128"), "tile_cols", "32 or 64 columns"));
  const auto permuted = [](const char* shape, const char* perm) {
    return verdict("lines", {{"shape", shape}, {"perm", perm}, {"dtype", "u8"}});
  };
  EXPECT_TRUE(says(permuted("230,11080,26", "2,1,0"), "accepted", ""));
  EXPECT_TRUE(says(permuted("189,24,307,96", "2,1,3,0"), "accepted", ""));
  EXPECT_TRUE(says(permuted("47,380741,15", "1,0,2"), "perm", "use movement or auto"));
}

// How lines lay out a permutation, as their results say.
ParamSet linesDerived(const char* shape, const char* perm) {
  const RawParams params{{"shape", shape}, {"perm", perm}, {"dtype", "u8"}};
  const Variant& v = Registry::instance().find("permute", "lines");
  return v.create(Registry::instance().resolve("permute", "lines", params), h100())->derived();
}

TEST(PermuteFamily, LinesSayHowTheyLayOutAPermutation) {
  const ParamSet reversed = linesDerived("230,11080,26", "2,1,0");
  EXPECT_EQ(reversed.get("matrices"), "1");
  EXPECT_EQ(reversed.get("matrix"), "230 x 11080,26 -> 26,11080");
  EXPECT_EQ(reversed.get("tile_cols_used"), "128");
  EXPECT_EQ(reversed.get("tile_rows_used"), "128");  // rows cut into covering words
  const ParamSet channels = linesDerived("1677721,40", "1,0");
  EXPECT_EQ(channels.get("matrix"), "1677721 x 40");
  EXPECT_EQ(channels.get("tile_cols_used"), "40");   // lanes packed, a column of each segment
  EXPECT_EQ(channels.get("tile_rows_used"), "512");  // in four segments: 160 threads
  EXPECT_EQ(channels.get("block"), "160");
  const ParamSet padded = linesDerived("2796202,24", "1,0");
  EXPECT_EQ(padded.get("tile_cols_used"), "32");  // 17 to 31 columns keep a warp a segment
  EXPECT_EQ(padded.get("tile_rows_used"), "256");
  EXPECT_EQ(linesDerived("3,100,7,77", "0,3,2,1").get("matrices"), "3");
  EXPECT_EQ(linesDerived("3,100,7,77", "0,3,2,1").get("matrix"), "100 x 7,77 -> 77,7");
}

// Rows the destination's innermost dimension, columns every source dimension inside it, the batch
// every one outside it; each column's and matrix's destination offsets as the permutation puts
// them.
TEST(LineTranspose, TakesAnyPermutationAsABatchOfMatrices) {
  const permute::Permutation s{{3, 5, 4, 7}, {1, 3, 2, 0}};  // already simple
  const auto l = permute::lineLaunchFor(s);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->batch, 1);
  EXPECT_EQ(l->rows, 3);
  EXPECT_EQ(l->cols, 5 * 4 * 7);
  const permute::DimensionStrides strides = permute::stridesOf(s);
  // Source element (a, b, c, d) is row a, column (b, c, d) of the one matrix.
  for (int b = 0; b < 5; ++b)
    for (int c = 0; c < 4; ++c)
      for (int d = 0; d < 7; ++d)
        EXPECT_EQ(l->columns.offsetOf((b * 4 + c) * 7 + d),
                  b * strides.dst[1] + c * strides.dst[2] + d * strides.dst[3]);
  EXPECT_EQ(strides.dst[0], 1);  // rows run along the destination
  const permute::Permutation batched{{6, 5, 9, 4}, {3, 1, 0, 2}};
  const auto m = permute::lineLaunchFor(batched);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->batch, 6 * 5);
  EXPECT_EQ(m->rows, 9);
  EXPECT_EQ(m->cols, 4);
  const permute::DimensionStrides bs = permute::stridesOf(batched);
  for (int a = 0; a < 6; ++a)
    for (int b = 0; b < 5; ++b)
      EXPECT_EQ(m->matrices.offsetOf(a * 5 + b), a * bs.dst[0] + b * bs.dst[1]);
  EXPECT_FALSE(permute::lineLaunchFor({{4, 5}, {1, 0}})->matrices.rank);
  EXPECT_FALSE(permute::lineLaunchFor({{4, 5, 6}, {1, 0, 2}}));  // the innermost stays
}

TEST(LineTranspose, TakesTheNarrowestTileThatHoldsARow) {
  EXPECT_EQ(permute::lineTileColsFor(20, 1), 32);
  EXPECT_EQ(permute::lineTileColsFor(33, 1), 64);
  EXPECT_EQ(permute::lineTileColsFor(64, 1), 64);
  EXPECT_EQ(permute::lineTileColsFor(65, 1), 128);
  EXPECT_EQ(permute::lineTileColsFor(6000, 1), 128);
  EXPECT_EQ(permute::lineTileColsFor(20, 2), 32);
  EXPECT_EQ(permute::lineTileColsFor(65, 2), 64);  // 128 bytes a tile row at most
  const permute::LineLaunch l{3, 1031, 389, 128};
  EXPECT_EQ(l.tiles(), 3 * 9 * 4);
  const permute::LineLaunch tall{3, 1031, 389, 64, 4};
  EXPECT_EQ(tall.tileRows(), 512);
  EXPECT_EQ(tall.tiles(), 3 * 3 * 7);
  permute::LineLaunch halves{3, 1031, 389, 64, 4};
  halves.elementBytes = 2;
  EXPECT_EQ(halves.tileRows(), 256);  // segments of 64 rows of halves
  EXPECT_EQ(halves.tiles(), 3 * 7 * 5);
  // Tiles whose lanes past the rows would be more than a quarter pack them, but for 17 to 31
  // columns.
  const auto packed = [](std::int64_t cols, int tileCols, int bytes = 1) {
    permute::LineLaunch launch{1, 1000, cols, tileCols};
    launch.elementBytes = bytes;
    return launch.packedRows();
  };
  EXPECT_TRUE(packed(40, 64));
  EXPECT_TRUE(packed(47, 64));
  EXPECT_FALSE(packed(48, 64));
  EXPECT_FALSE(packed(24, 32));
  EXPECT_FALSE(packed(31, 128));
  EXPECT_TRUE(packed(16, 32));
  EXPECT_TRUE(packed(72, 128));
  EXPECT_FALSE(packed(200, 128));  // rows cut
  EXPECT_TRUE(packed(40, 64, 2));
  // Packed: the segments that fill most lanes and rows in up to 160 threads (a warp under 17
  // columns) and 1024 tiles, nearest 128 threads; else two where a tile of 64 bytes a row or
  // fewer holds whole rows, filled as well as one, in 1024 tiles or more.
  EXPECT_EQ(permute::lineSegmentsFor(1, 1677721, 40, 64, 1), 4);  // 160 lanes of 160
  EXPECT_EQ(permute::lineSegmentsFor(1, 2033601, 33, 64, 1), 4);  // 132 of 160
  EXPECT_EQ(permute::lineSegmentsFor(1, 466033, 36, 64, 1), 3);   // 4 leave 911 tiles
  EXPECT_EQ(permute::lineSegmentsFor(8388, 200, 40, 64, 1), 2);   // rows 200 of 256
  EXPECT_EQ(permute::lineSegmentsFor(9000, 128, 40, 64, 1), 1);   // rows 128 of 128
  EXPECT_EQ(permute::lineSegmentsFor(1, 9586980, 7, 32, 1), 4);   // a warp: 28 lanes
  EXPECT_EQ(permute::lineSegmentsFor(1, 4194304, 16, 32, 1), 2);
  EXPECT_EQ(permute::lineSegmentsFor(1, 932067, 72, 128, 1), 2);  // 144 of 160
  EXPECT_EQ(permute::lineSegmentsFor(1, 838860, 40, 64, 2), 4);
  EXPECT_EQ(permute::lineSegmentsFor(1, 2796202, 24, 32, 1), 2);  // a warp a segment
  EXPECT_EQ(permute::lineSegmentsFor(4301, 300, 52, 64, 1), 1);   // 2 tiles of 1 fill more
  EXPECT_EQ(permute::lineSegmentsFor(1, 174762, 24, 32, 1), 1);   // 683 tiles
  EXPECT_EQ(permute::lineSegmentsFor(1, 699050, 100, 128, 1), 1);
  EXPECT_EQ(permute::lineSegmentsFor(1, 20000, 203, 128, 1), 1);
  EXPECT_EQ(permute::lineSegmentsFor(1, 524288, 64, 64, 2), 1);  // rows of 128 bytes
  EXPECT_EQ(permute::lineSegmentsFor(1, 838860, 20, 32, 2), 2);
}

// Up to 4 segments, 256 threads, 128 bytes a tile row and 64 KiB of shared memory a block, so
// that every GPU from sm_75 runs them; packed tiles up to 32 segments and 256 threads.
TEST(LineTranspose, BuildsTilesOfUpTo256ThreadsIn64KiB) {
  for (const int bytes : {1, 2})
    for (const int cols : {32, 64, 128})
      for (const int segments : {1, 2, 4, 8}) {
        permute::LineLaunch l{1, 1000, 1000, cols, segments};  // rows cut
        l.elementBytes = bytes;
        const bool built = permute::lineTileBuilt(l);
        EXPECT_EQ(built, cols * segments <= 256 && segments <= 4 && cols * bytes <= 128)
            << bytes << ": " << cols << " x " << segments;
        if (built) {
          EXPECT_LE(permute::lineSharedBytes(l), 64u * 1024)
              << bytes << ": " << cols << " x " << segments;
        }
      }
  for (const int bytes : {1, 2})
    for (int segments = 1; segments <= 33; ++segments) {
      permute::LineLaunch l{1, 100000, 7, 32, segments};
      l.elementBytes = bytes;
      EXPECT_EQ(permute::lineTileBuilt(l), segments <= 32) << segments;
      EXPECT_LE(permute::lineSharedBytes(l), 64u * 1024) << segments;
      l.cols = 40;
      l.tileCols = 64;
      EXPECT_EQ(permute::lineTileBuilt(l), segments <= 6) << segments;  // 240 threads
      if (segments <= 6) {
        EXPECT_LE(permute::lineSharedBytes(l), 64u * 1024) << segments;
      }
    }
  // A tile that holds whole rows loads them as one run: its lanes' staged columns take the most.
  permute::LineLaunch whole{1, 1677721, 24, 32, 2};
  EXPECT_EQ(permute::lineSharedBytes(whole), 2u * 32 * 49 * 4);
  whole.cols = 40;  // packed: 80 lanes in 96 threads
  whole.tileCols = 64;
  EXPECT_EQ(permute::lineSharedBytes(whole), 96u * 49 * 4);
  whole.cols = 1000;
  EXPECT_EQ(permute::lineSharedBytes(whole), 16u + 288 * (64 + 47) + 32);
  const auto built = [](int tileCols, int segments, int bytes) {
    permute::LineLaunch l{1, 1000, 1000, tileCols, segments};
    l.elementBytes = bytes;
    return permute::lineTileBuilt(l);
  };
  EXPECT_FALSE(built(64, 3, 1));
  EXPECT_FALSE(built(48, 1, 1));
  EXPECT_FALSE(built(32, 1, 4));
}

// Lanes 8 apart start on different elements of their words: rows of 100 bytes, 4 rows a word,
// would otherwise put lanes 8 apart in one bank.
TEST(PlaneTranspose, GathersSpreadOverTheBanks) {
  const auto ways = [](std::int64_t rows, std::int64_t cols, int bytes) {
    return permute::PlaneLaunch{1, rows, cols, bytes}.bankWays();
  };
  EXPECT_EQ(ways(84, 100, 1), 1);
  EXPECT_EQ(ways(100, 84, 1), 1);
  EXPECT_EQ(ways(64, 64, 1), 8);
  EXPECT_EQ(ways(50, 60, 2), 2);
  EXPECT_EQ(ways(64, 64, 2), 32);
  EXPECT_EQ(ways(30, 30, 4), 2);
}

TEST(NarrowTranspose, VectorsDivideThePlaneAndHoldWholeElements) {
  using permute::narrowVectorBytes;
  EXPECT_EQ(narrowVectorBytes(262144, 4), 16);
  EXPECT_EQ(narrowVectorBytes(262146, 4), 8);
  EXPECT_EQ(narrowVectorBytes(1001, 2), 2);
  EXPECT_EQ(narrowVectorBytes(1002, 2), 4);
  EXPECT_EQ(narrowVectorBytes(3, 8), 8);
  EXPECT_EQ(narrowVectorBytes(64, 1, 0, 4), 4);
  EXPECT_EQ(narrowVectorBytes(262144, 4, 8), 8);  // a source 8 bytes into its allocation
  EXPECT_EQ(narrowVectorBytes(262144, 2, 2), 2);
}

TEST(NarrowTranspose, AChunkIsAWholeNumberOfVectorsPerPlaneWithinTheBlocksShare) {
  permute::NarrowLaunch l;
  l.batch = 16;
  l.narrow = 3;
  l.wide = 262144;
  l.elementBytes = 4;
  l.vectorBytes = 16;
  l.block = 256;
  // 1024 vectors a block: 341 per plane of 4 elements.
  EXPECT_EQ(l.chunkWidth(), 1364);
  EXPECT_EQ(l.chunks(), 16 * 193);
  EXPECT_EQ(l.sharedBytes(), 16384);  // 1364 * 3 * 4 and a vector, in whole 128-byte rows
  EXPECT_LE(l.sharedBytes(), 256 * 4 * 16);
  EXPECT_FALSE(l.planesShifted());
  // Planes of an odd width, or a source off a vector, span a vector more each: 340 a plane.
  l.wide = 262145;
  EXPECT_TRUE(l.planesShifted());
  EXPECT_EQ(l.chunkWidth(), 1360);
  EXPECT_LE((l.chunkWidth() / 4 + 1) * 3, 256 * 4);
  l.wide = 262144;
  l.sourceHead = 1;
  EXPECT_TRUE(l.planesShifted());
  l.planarSource = false;  // the destination's planes: on vectors
  EXPECT_FALSE(l.planesShifted());
}

TEST(NarrowTranspose, SwizzlingKeepsEachRowsVectorsInTheRow) {
  for (const int perRow : {8, 16, 32, 64, 128})
    for (const int shift : {0, 1, 3}) {
      std::vector<int> seen(16 * perRow, 0);
      for (int v = 0; v < 16 * perRow; ++v) {
        const int slot = permute::swizzledVector(v, perRow, shift);
        EXPECT_EQ(slot / perRow, v / perRow);
        ++seen[static_cast<std::size_t>(slot)];
      }
      EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), 16 * perRow) << perRow << " " << shift;
    }
}

TEST(NarrowTranspose, SwizzlesWherePlanesWouldMeetInOneBank) {
  permute::NarrowLaunch l;
  l.elementBytes = 4;
  l.vectorBytes = 16;
  l.narrow = 8;  // lanes 128 bytes apart: all in one bank
  EXPECT_EQ(l.bankWays(false), 32);
  EXPECT_EQ(l.bankWays(true), 4);
  EXPECT_TRUE(l.swizzlePays());
  l.narrow = 3;  // 48 bytes apart: 4 words a bank, which swizzling would double
  EXPECT_EQ(l.bankWays(false), 4);
  EXPECT_FALSE(l.swizzlePays());
  l.narrow = 16;  // two rows apart: the swizzle shifts a row's number one bit
  EXPECT_EQ(l.swizzleShift(), 1);
  EXPECT_EQ(l.bankWays(true), 4);
  l.narrow = 48;
  EXPECT_EQ(l.swizzleShift(), 1);
  EXPECT_EQ(l.bankWays(true), 4);
  l.narrow = 16;
  l.vectorBytes = 8;
  EXPECT_EQ(l.swizzleShift(), 0);
  EXPECT_EQ(l.bankWays(false), 32);
  EXPECT_EQ(l.bankWays(true), 2);
  EXPECT_TRUE(l.swizzlePays());
  l.elementBytes = 1;
  EXPECT_TRUE(l.swizzlePays());
  l.vectorBytes = 4;  // never in 4-byte vectors
  l.elementBytes = 4;
  EXPECT_FALSE(l.swizzlePays());
}

}  // namespace
}  // namespace kwb
