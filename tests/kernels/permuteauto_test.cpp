// auto's choices at the edges of the rules that depend on the shape alone, checked here without a
// GPU (the GPU tests run the same kinds of shapes).
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "kernels/h100device.h"
#include "kernels/registry.h"

namespace kwb {
namespace {

ParamSet derivedOf(const char* shape, const char* perm, const char* dtype, const char* offset = "0",
                   const DeviceInfo& device = h100()) {
  const RawParams params{{"shape", shape}, {"perm", perm}, {"dtype", dtype}, {"offset", offset}};
  const Variant& v = Registry::instance().find("permute", "auto");
  return v.create(Registry::instance().resolve("permute", "auto", params), device)->derived();
}

std::string chosen(const char* shape, const char* perm, const char* dtype = "f32",
                   const char* offset = "0") {
  return derivedOf(shape, perm, dtype, offset).get("chosen");
}

TEST(PermuteAuto, GeneralTilesFitTheirSidesToGroupsWhoseRowsStraddleSectors) {
  // Rows of 66 f64, 528 bytes apart: tiles 16 wide, 83 % full, not 64 wide, 52 %.
  EXPECT_EQ(derivedOf("12,14,736,11,6", "3,1,4,2,0", "f64").get("tile"), "128 x 16");
  EXPECT_EQ(derivedOf("4,26,1000,66", "0,3,2,1", "f64").get("tile"), "128 x 16");
  // Rows of 44 f64, 352 bytes apart, start on sectors: the tile holds a row whole.
  EXPECT_EQ(derivedOf("2,1,300,4,96,44", "5,3,0,2,4,1", "f64").get("tile"), "32 x 64");
  // tile_in sets the width, the rows take the rest.
  const RawParams params{
      {"shape", "12,14,736,11,6"}, {"perm", "3,1,4,2,0"}, {"dtype", "f64"}, {"tile_in", "64"}};
  const Variant& general = Registry::instance().find("permute", "general");
  EXPECT_EQ(general.create(Registry::instance().resolve("permute", "general", params), h100())
                ->derived()
                .get("tile"),
            "32 x 64");
}

TEST(PermuteAuto, PackedTilesTakeFrom65PlanesToChannelsLastWhoseRowsStraddleSectors) {
  EXPECT_EQ(chosen("98,342392", "1,0"), "packed");
  EXPECT_EQ(chosen("65,2064888", "1,0", "u8"), "packed");
  EXPECT_EQ(chosen("128,262144", "1,0", "u8"), "tiled_wide");  // rows of whole sectors
  EXPECT_EQ(chosen("127,264208", "1,0", "f64"), "packed");
  EXPECT_EQ(chosen("159,105517", "1,0", "f64"), "packed");
  EXPECT_EQ(chosen("161,208414", "1,0", "f64"), "tiled");  // past 160 planes of doubles
  EXPECT_EQ(chosen("255,65794", "1,0", "f32"), "packed");
  EXPECT_EQ(chosen("257,65281", "1,0", "f32"), "tiled");   // past 256 of floats
  EXPECT_NE(chosen("129,520224", "1,0", "u8"), "packed");  // past 128 of bytes
  EXPECT_EQ(chosen("100,167772", "1,0"), "tiled");         // under 64 MiB
  EXPECT_EQ(chosen("100,671088", "1,0", "f16"), "tiled_wide");
  EXPECT_EQ(chosen("2,100,335544", "0,2,1"), "packed");    // a batch of them
  EXPECT_EQ(chosen("49,1369600", "1,0", "u8"), "packed");  // bytes from 49 planes
  EXPECT_EQ(chosen("48,1398112", "1,0", "u8"), "tiled_wide");
}

TEST(PermuteAuto, PlanesTakeBatchesOfBytesAndHalvesInPlanesOf5To13KiB) {
  EXPECT_EQ(chosen("15978,84,100", "0,2,1", "u8"), "planes");
  EXPECT_EQ(chosen("11184,200,60", "0,2,1", "u8"), "planes");
  EXPECT_EQ(chosen("22369,50,60", "0,2,1", "f16"), "planes");
  EXPECT_EQ(chosen("8388,200,40", "0,2,1", "u8"), "planes");        // a few KiB short of 64 MiB
  EXPECT_EQ(chosen("3994,700,24", "0,2,1", "u8"), "planes");        // planes of bytes to 17 KiB
  EXPECT_NE(chosen("1386,1100,44", "0,2,1", "u8"), "planes");       // of 48400
  EXPECT_NE(chosen("7000,84,100", "0,2,1", "u8"), "planes");        // under 60 MiB
  EXPECT_NE(chosen("34952,48,80", "0,2,1", "u8"), "planes");        // planes of 3840 bytes
  EXPECT_NE(chosen("7989,84,100", "0,2,1", "f16"), "planes");       // of 16800
  EXPECT_NE(chosen("16384,64,64", "0,2,1", "f16"), "planes");       // 32 words a bank
  EXPECT_NE(chosen("11184,50,60", "0,2,1", "f32"), "planes");       // 4-byte elements
  EXPECT_NE(chosen("15978,84,100", "0,2,1", "u8", "1"), "planes");  // an offset source
}

TEST(PermuteAuto, PackedTilesTakeByteColumnsOf49To63Bytes) {
  EXPECT_EQ(chosen("62,135301,4", "2,1,0", "u8"), "packed");
  EXPECT_EQ(chosen("64,131073,4", "2,1,0", "u8"), "general");   // columns of a cells' group
  EXPECT_EQ(chosen("70400,9,53", "2,0,1", "u8"), "lines");      // short rows, not columns
  EXPECT_EQ(chosen("62,135301,4", "2,1,0", "f16"), "general");  // bytes only
}

TEST(PermuteAuto, LinesTakeByteTransposesFromChannelsLastToAFewDozenPlanes) {
  EXPECT_EQ(chosen("1677721,40", "1,0", "u8"), "lines");  // the narrow kernel would take them
  EXPECT_EQ(chosen("2033601,33", "1,0", "u8"), "lines");
  EXPECT_EQ(chosen("3195660,21", "1,0", "u8"), "lines");
  EXPECT_EQ(chosen("3728270,18", "1,0", "u8"), "lines");  // where it would swizzle
  EXPECT_EQ(chosen("5592405,12", "1,0", "u8"), "lines");
  EXPECT_EQ(chosen("4793490,14", "1,0", "u8"), "lines");
  EXPECT_EQ(chosen("6710886,10", "1,0", "u8"), "narrow");  // under 12 planes
  EXPECT_EQ(chosen("3532045,19", "1,0", "u8"), "narrow");  // unswizzled
  EXPECT_EQ(chosen("4194304,16", "1,0", "u8"), "lines");   // 16 planes: level (1.01x)
  EXPECT_EQ(chosen("4473924,15", "1,0", "u8"), "narrow");
  EXPECT_EQ(chosen("174762,24", "1,0", "u8"), "lines");    // 4 MB
  EXPECT_EQ(chosen("87381,24", "1,0", "u8"), "narrow");    // 2 MB
  EXPECT_EQ(chosen("52,1290555", "1,0", "u8"), "narrow");  // from planes
  EXPECT_EQ(chosen("1290555,52", "1,0", "u8"), "lines");   // general tiles would take them
  EXPECT_EQ(chosen("8,161319,52", "0,2,1", "u8"), "lines");
  EXPECT_EQ(chosen("14563,96,24", "0,2,1", "u8"), "lines");  // matrices of 96 rows
  EXPECT_EQ(chosen("508400,66", "1,0", "u8"), "general");    // past 63 planes under 64 MB
  EXPECT_EQ(chosen("1016800,66", "1,0", "u8"), "lines");
  EXPECT_EQ(chosen("466033,36", "1,0", "u8"), "lines");  // the tiled kernel would take them
  EXPECT_EQ(chosen("2049,2049", "1,0", "u8"), "lines");
  EXPECT_EQ(chosen("1025,1025", "1,0", "u8"), "tiled");  // 1 MiB
  EXPECT_EQ(chosen("2097152,32", "1,0", "u8"), "tiled_wide");
  // Halves where the narrow kernel's planes start inside its vectors, or tiles would take them.
  EXPECT_EQ(chosen("2033103,33", "1,0", "f16"), "lines");
  EXPECT_EQ(chosen("16,52428,40", "0,2,1", "f16"), "lines");  // batches too
  EXPECT_EQ(chosen("1048576,16", "1,0", "f16"), "narrow");    // planes start on vectors
  EXPECT_EQ(chosen("65536,40", "1,0", "f16"), "narrow");      // 5 MB
  EXPECT_EQ(chosen("1677721,41", "1,0", "f16"), "narrow");    // past 40 planes for narrow
  EXPECT_EQ(chosen("104857,40", "1,0", "f16"), "lines");      // 8 MiB, the tiled kernel's
  EXPECT_EQ(chosen("645277,52", "1,0", "f16"), "lines");      // general tiles'
  EXPECT_NE(chosen("612,1024,53", "0,2,1", "f16"), "lines");  // past 52 planes
  EXPECT_EQ(chosen("932067,72", "1,0", "u8"), "lines");       // 64 MiB, general tiles'
  EXPECT_EQ(chosen("699050,96", "1,0", "u8"), "general");     // past 80 planes
  EXPECT_EQ(chosen("1073741825,40", "1,0", "u8"), "narrow");  // past the kernel's 2^30 rows
}

TEST(PermuteAuto, LinesTakeReorderedTransposesFromChannelsLastToAFewDozenPlanes) {
  EXPECT_EQ(chosen("53,5,10551,24", "1,0,3,2", "u8"), "lines");  // packed tiles would take them
  EXPECT_EQ(chosen("53,5,3956,64", "1,0,3,2", "u8"), "lines");   // general tiles would
  EXPECT_EQ(chosen("53,5,21103,12", "1,0,3,2", "f16"), "lines");
  EXPECT_EQ(chosen("7,9,11,2000,40", "2,0,1,4,3", "f16"), "lines");
  EXPECT_NE(chosen("53,5,15827,8", "1,0,3,2", "f16"), "lines");  // 8 planes
  EXPECT_NE(chosen("53,5,2637,96", "1,0,3,2", "u8"), "lines");   // 96 planes
  EXPECT_NE(chosen("53,5,3956,16", "1,0,3,2", "u8"), "lines");   // 16 MiB
  EXPECT_NE(chosen("53,5,24,10551", "1,0,3,2", "u8"), "lines");  // from planes
  EXPECT_NE(chosen("53,5,3956,32", "1,0,3,2", "f32"), "lines");  // 4-byte elements
  EXPECT_EQ(chosen("265,10551,24", "0,2,1", "f16"), "lines");    // in order: as a batch transpose
}

TEST(PermuteAuto, SmallByteMatricesInWordsTakeTheWalkWhereTheyFillLittleOfTheirTiles) {
  // Under 64 MiB, where planes would take them.
  EXPECT_EQ(chosen("7000,84,100", "0,2,1", "u8"), "movement");  // tiles filled 0.51
  EXPECT_EQ(chosen("10000,60,100", "0,2,1", "u8"), "general");  // 0.73
  EXPECT_EQ(chosen("3000,124,124", "0,2,1", "u8"), "general");  // 0.94
}

TEST(PermuteAuto, SparseByteTilesInWordsTakeTheWalkWhereItsSourceSectorsStayClose) {
  // 71 sectors, from 32 MiB on; packed tiles in words beat the walk there (1.08 to 1.1x).
  EXPECT_EQ(chosen("116508,96,24", "0,2,1", "u8"), "packed");
  EXPECT_EQ(chosen("14564,96,24", "0,2,1", "u8"), "packed");
  EXPECT_EQ(chosen("14563,96,24", "0,2,1", "u8"), "lines");             // under 32 MiB: lines
  EXPECT_EQ(chosen("47,200,1000,7,4", "2,0,4,1,3", "u8"), "movement");  // 4 bytes apart
  EXPECT_EQ(chosen("5,779,1000,68", "1,3,2,0", "u8"), "general");       // 6.6 million sectors
  EXPECT_EQ(chosen("234,186,96,4,4", "4,1,2,0,3", "u8"), "general");    // tiles filled 0.91
  EXPECT_EQ(chosen("826,12,3,94,96", "0,3,4,1,2", "u8"), "general");    // 36 planes
  EXPECT_EQ(chosen("116508,96,24", "0,2,1", "f16"), "general");         // bytes only
}

TEST(PermuteAuto, PackedTilesTakeShortRowsThatStayInnermostWhereTheWalkComesBackLate) {
  EXPECT_EQ(chosen("559241,5,3", "1,0,2"), "packed");
  EXPECT_EQ(chosen("1342178,5,5", "1,0,2", "u8"), "packed");
  EXPECT_EQ(chosen("1342177,5,5", "1,0,2", "u8"), "movement");         // under 32 MiB
  EXPECT_EQ(chosen("559241,5,4", "1,0,2"), "movement");                // rows of 16 bytes
  EXPECT_EQ(chosen("1214,14,329,3", "0,2,1,3", "f32"), "movement");    // back after 42
  EXPECT_EQ(chosen("4,394758,34,5", "0,2,1,3", "u8"), "packed");       // bytes: runs of 64 or more
  EXPECT_EQ(chosen("15,676,19,96,7", "0,3,1,2,4", "f16"), "general");  // runs of 7 halves
}

TEST(PermuteAuto, GeneralTilesTakeRowsTheWalkWouldMoveAByteOrAHalfAtATime) {
  EXPECT_EQ(chosen("47,19,20039,15", "1,2,0,3", "u8"), "general");  // single bytes
  EXPECT_EQ(chosen("256,224,224,3", "0,2,1,3", "u8"), "general");
  EXPECT_EQ(chosen("100,7,5", "1,0,2", "u8", "1"), "movement");             // under 4 MiB
  EXPECT_EQ(chosen("189,101,2,100,7,5", "1,2,4,3,0,5", "f16"), "general");  // 5 halves
  EXPECT_EQ(chosen("64,65536,3", "1,0,2", "f16"), "movement");              // 3 halves
  EXPECT_EQ(chosen("935,11962,12", "1,0,2", "f16"), "movement");            // 8 bytes at once
  EXPECT_EQ(chosen("20000,400,65", "1,0,2", "u8"), "movement");             // 65 bytes
  EXPECT_EQ(chosen("40000,400,2", "1,0,2", "u8"), "general");  // rows of 2 bytes as elements
  const ParamSet rows = derivedOf("40000,400,2", "1,0,2", "u8", "1");
  EXPECT_EQ(rows.get("chosen"), "general");  // from an odd byte: as units of their bytes
  EXPECT_EQ(rows.get("rows"), "bytes");
  // As tall as source rows of 128 bytes leave them: runs of 4 x 57 and 64 x 57 bytes.
  EXPECT_EQ(derivedOf("370,25,126,57", "2,1,0,3", "u8").get("tile"), "64 x 4");
  EXPECT_EQ(derivedOf("47,19,20039,15", "1,2,0,3", "u8").get("tile"), "64 x 16");
}

TEST(PermuteAuto, PackedTilesTakeShortSidesOfHalvesAndFloatsWhereTheWalkComesBackLate) {
  EXPECT_EQ(chosen("9,669,851,3", "3,1,0,2"), "packed");  // back after 5123871 floats
  EXPECT_EQ(chosen("3,5592405,8", "2,1,0", "f16"), "packed");
  EXPECT_EQ(chosen("667,2,71,787,3", "2,4,1,0,3"), "packed");    // after 4.0 MiB
  EXPECT_EQ(chosen("666,2,71,787,3", "2,4,1,0,3"), "movement");  // after 3.99 MiB
  EXPECT_EQ(chosen("1333,2,71,787,3", "2,4,1,0,3", "f16"), "packed");
  EXPECT_EQ(chosen("1332,2,71,787,3", "2,4,1,0,3", "f16"), "movement");
}

TEST(PermuteAuto, PackedTilesInWordsTakeWhatTheWalkWouldWhereTheyRunLong) {
  EXPECT_EQ(chosen("3,2,4,215092,13", "3,2,0,1,4", "u8"), "packed");   // runs of 156 and 3744
  EXPECT_EQ(chosen("13,107546,2,8,3", "1,3,4,0,2", "f16"), "packed");  // of 576 and 7488
  EXPECT_EQ(chosen("828504,3,54", "1,0,2", "u8"), "packed");           // the walk's rows: 54
  EXPECT_EQ(chosen("5,479349,56", "1,0,2", "f16"), "movement");        // 112 bytes
  EXPECT_EQ(chosen("7000,84,100", "0,2,1", "u8"), "movement");         // writes runs of 28
  EXPECT_EQ(chosen("3,63550,4,22", "1,0,3,2", "u8"), "movement");      // 16 MiB
  EXPECT_EQ(chosen("828504,3,54", "1,0,2", "u8", "1"), "general");     // no whole words
}

TEST(PermuteAuto, PackedTilesTakeHalvesInSparseGeneralTilesWhereTheyRunLong) {
  EXPECT_EQ(chosen("2,33,67,27,17,15", "5,3,0,2,4,1", "f16"), "packed");  // tiles filled 0.51
  EXPECT_EQ(chosen("12,34,715,23,5", "0,2,4,3,1", "f16"), "packed");
  EXPECT_EQ(chosen("5,7,2,1000,37,45", "0,5,2,3,1,4", "f16"), "general");  // runs of 74 bytes
  EXPECT_EQ(chosen("12,34,715,23,5", "0,2,4,3,1", "f32"), "general");      // halves only
  EXPECT_EQ(chosen("2,33,67,27,17,7", "5,3,0,2,4,1", "f16"), "general");   // under 32 MiB
}

// But aligned tiles of 32 where one tall tile holds each column: 65 to 97 planes of 4- and 8-byte
// elements whose rows straddle sectors, from a wave of tall tiles (tiles of 32 x 8 threads).
TEST(PermuteAuto, AlignedTilesOf32TakeColumnsOneTallTileHolds) {
  for (const auto& [shape, dtype] :
       {std::pair{"65,516222", "f32"}, std::pair{"95,350000", "f32"}, std::pair{"95,73920", "f64"},
        std::pair{"97,170000", "f64"}, std::pair{"3,67,200000", "f64"}}) {
    const ParamSet d =
        derivedOf(shape, std::string(shape).starts_with("3,") ? "0,2,1" : "1,0", dtype);
    EXPECT_EQ(d.get("chosen"), "tiled") << shape << " " << dtype;
    EXPECT_EQ(d.get("stores"), "aligned") << shape << " " << dtype;
    EXPECT_EQ(d.get("block"), "256") << shape << " " << dtype;
  }
  EXPECT_EQ(chosen("98,170000", "1,0", "f64"), "packed");               // two tall tiles a column
  EXPECT_EQ(derivedOf("407,41221", "1,0", "f64").get("block"), "128");  // tiles of 16
  // Under a wave of tall tiles.
  EXPECT_EQ(derivedOf("95,30000", "1,0", "f32").get("stores"), "tile");
  EXPECT_EQ(chosen("64,1048576", "1,0", "f64"), "narrow");
}

// Transposes of floats and doubles in 2 x 2 cells where destination rows are whole sectors and
// both sides even; elsewhere single elements, with aligned stores where rows straddle sectors.
TEST(PermuteAuto, CellsTakeFloatsAndDoublesWhoseDestinationRowsAreWholeSectors) {
  for (const auto& [shape, perm] :
       {std::pair{"8192,8192", "1,0"}, std::pair{"3,4096,4096", "0,2,1"},
        std::pair{"10440,6428", "1,0"}}) {
    const ParamSet d = derivedOf(shape, perm, "f32");
    EXPECT_EQ(d.get("chosen"), "tiled_wide") << shape;
    EXPECT_EQ(d.get("cell"), "2 x 2") << shape;
    EXPECT_EQ(d.get("cells_across_used"), "32") << shape;
    EXPECT_EQ(d.get("stores"), "tile") << shape;
  }
  EXPECT_EQ(chosen("8192,8192", "1,0", "f32", "1"), "tiled");  // a source off 8-byte words
  EXPECT_EQ(chosen("8192,8191", "1,0"), "tiled");              // an odd side
  EXPECT_EQ(derivedOf("930,18048", "1,0", "f32").get("stores"), "aligned");
  EXPECT_EQ(chosen("930,18048", "1,0"), "tiled");
  const ParamSet doubles = derivedOf("100,335544", "1,0", "f64");
  EXPECT_EQ(doubles.get("chosen"), "tiled_wide");
  EXPECT_EQ(doubles.get("cells_across_used"), "16");
  EXPECT_EQ(doubles.get("cells_per_thread_used"), "4");
  EXPECT_EQ(chosen("8192,8192", "1,0", "f64", "1"), "tiled");  // off 16-byte rows
  EXPECT_EQ(chosen("2050,8192", "1,0", "f64"), "tiled");       // rows straddling sectors
}

// Cells of 16-bit elements one a thread where DRAM feeds each SM more than 30 GB/s (an H200's
// 4.8 TB/s over 132 SMs), two elsewhere; bytes keep two either way.
TEST(PermuteAuto, CellsOfHalvesOneAThreadWhereMemoryOutpacesTheSms) {
  DeviceInfo h200 = h100();
  h200.peakBandwidth = 4.8e12;
  DeviceInfo h100Sxm = h100();
  h100Sxm.peakBandwidth = 3.35e12;
  for (const char* dtype : {"f16", "bf16"}) {
    const ParamSet fast = derivedOf("8192,8192", "1,0", dtype, "0", h200);
    EXPECT_EQ(fast.get("chosen"), "tiled_wide") << dtype;
    EXPECT_EQ(fast.get("cells_across_used"), "32") << dtype;
    EXPECT_EQ(fast.get("cells_per_thread_used"), "1") << dtype;
    EXPECT_EQ(derivedOf("8192,8192", "1,0", dtype, "0", h100Sxm).get("cells_per_thread_used"), "2")
        << dtype;
  }
  EXPECT_EQ(derivedOf("8192,8192", "1,0", "u8", "0", h200).get("cells_per_thread_used"), "2");
}

// A reordered batch of transposes of 4- and 8-byte elements takes the narrow kernel where the
// batch in order would, from 32 MiB; bytes where its cells in registers take them.
TEST(PermuteAuto, NarrowTakesReorderedBatchesOfWideElementsAndCells) {
  EXPECT_EQ(chosen("56,2,49932,3", "1,0,3,2", "f64"), "narrow");
  EXPECT_EQ(derivedOf("56,2,49932,3", "1,0,3,2", "f64").get("matrix_order"), "1,0");
  EXPECT_EQ(chosen("3,741,15080,2", "1,0,3,2", "f32"), "narrow");
  EXPECT_EQ(chosen("12,2,5,24864,5", "0,2,1,4,3", "f64"), "narrow");
  EXPECT_EQ(chosen("112,49932,3", "0,2,1", "f64"), "narrow");      // the same in order
  EXPECT_NE(chosen("12,100,37282,3", "1,0,3,2", "u8"), "narrow");  // planes off words
  EXPECT_EQ(chosen("96,78,3,5976", "1,0,3,2", "u8"), "narrow");    // cells
  EXPECT_EQ(derivedOf("96,78,3,5976", "1,0,3,2", "u8").get("exchange"), "registers");
  EXPECT_EQ(chosen("78,96,3,5974", "1,0,3,2", "u8"), "narrow");  // cells shifted, from planes
  EXPECT_EQ(derivedOf("78,96,3,5974", "1,0,3,2", "u8").get("shifted"), "yes");
  EXPECT_NE(chosen("4,1000,2,16700", "1,0,3,2", "f16"), "narrow");  // halves: packed tiles
  EXPECT_NE(chosen("4,1000,9,16700", "1,0,3,2", "u8"), "narrow");   // 9 planes
  EXPECT_NE(chosen("20,12,7767,72", "1,0,3,2", "f32"), "narrow");   // 72 planes: tiles in order
  EXPECT_NE(chosen("2,1000,2,1048", "1,0,3,2", "f32"), "narrow");   // 16 MiB
}

// The narrow kernel's cells where runs start inside words: bytes from planes take them, bytes
// into planes and halves keep the shared exchange.
TEST(PermuteAuto, NarrowShiftsCellsOfBytesFromPlanes) {
  const auto exchange = [](const char* shape, const char* dtype) {
    const ParamSet d = derivedOf(shape, "0,2,1", dtype);
    EXPECT_EQ(d.get("chosen"), "narrow") << shape << " " << dtype;
    return d.get("exchange");
  };
  EXPECT_EQ(exchange("512,3,50177", "u8"), "registers");
  EXPECT_EQ(exchange("512,50177,3", "u8"), "shared");
  EXPECT_EQ(exchange("256,3,50177", "f16"), "shared");
  EXPECT_EQ(exchange("256,3,50176", "f16"), "registers");  // whole words
}

// Tall tiles may read more again in tensors larger than L2: up to twice the source's rows, for
// pairs of halves 3.5 times.
TEST(PermuteAuto, AlignedStoresReadMoreAgainPastL2) {
  const auto stores = [](const char* shape, const char* dtype) {
    return derivedOf(shape, "1,0", dtype).get("stores");
  };
  EXPECT_EQ(stores("397,42259", "f32"), "aligned");  // reads 1.6 times, 64 MiB
  EXPECT_EQ(stores("397,20000", "f32"), "tile");     // 30 MiB
  EXPECT_EQ(stores("100,167772", "f32"), "tile");    // 3.2 times
  EXPECT_EQ(stores("98,684784", "f16"), "aligned");  // pairs, 3.3 times
  EXPECT_EQ(stores("98,100000", "f16"), "tile");     // 19 MiB
  EXPECT_EQ(stores("100,335544", "f16"), "tile");    // cells, 3.2 times
}

// General tiles of 4- and 8-byte units: groups grown until they fill most of their tiles, and
// stores from sector boundaries where columns start inside sectors and run 8 tiles or more, in
// tensors larger than L2, with in groups of 4 tiles or more or filling their tiles.
TEST(PermuteAuto, GeneralTilesOfWideUnitsFillTheirTilesAndAlignStores) {
  const ParamSet reversal = derivedOf("87,6,64280", "2,1,0", "f32");
  EXPECT_EQ(reversal.get("groups"), "in 64280 | out 87 x 6 | batch 1");  // 87 of 128 alone
  EXPECT_EQ(reversal.get("stores"), "aligned");                          // columns of 2088 bytes
  const ParamSet whole = derivedOf("3,990,168,18,7", "4,0,3,1,2", "f32");
  EXPECT_EQ(whole.get("groups"), "in 7 x 18 | out 166320 | batch 3");
  EXPECT_EQ(whole.get("stores"), "tile");  // columns of whole sectors
  EXPECT_EQ(derivedOf("4,10,6,12", "3,1,2,0", "f64").get("stores"), "tile");     // one tile's run
  EXPECT_EQ(derivedOf("100,58,180,2", "2,1,0,3", "f16").get("stores"), "tile");  // rows of 4 bytes
  EXPECT_EQ(derivedOf("15,65,12,46,124", "4,2,0,1,3", "f32").get("stores"), "aligned");
  EXPECT_EQ(derivedOf("7,449,3,12,74,2", "2,3,0,4,1,5", "f32").get("stores"), "tile");  // 7 tiles
  EXPECT_EQ(derivedOf("87381,3,16", "2,1,0", "f32").get("stores"), "tile");             // 16 MiB
  EXPECT_EQ(derivedOf("3983,351,48", "2,1,0", "f32").get("stores"), "aligned");
  EXPECT_EQ(derivedOf("5,197379,17,4", "3,2,1,0", "f32").get("stores"), "tile");  // in 64 + 4
  EXPECT_FALSE(derivedOf("5,130,67", "2,1,0", "u8").has("stores"));               // units of a byte
}

// Cells of bytes store from sector boundaries where columns start inside sectors and span 1.5
// tiles or more, over in groups of 32 tiles or more, in tensors larger than L2; halves do not.
TEST(PermuteAuto, CellsOfBytesAlignStoresOverLongInGroups) {
  const ParamSet cells = derivedOf("323,4,16,270,24", "4,2,3,1,0", "u8");  // columns of 1292
  EXPECT_EQ(cells.get("groups"), "in 24 x 4320 | out 323 x 4 | batch 1");
  EXPECT_EQ(cells.get("stores"), "aligned");
  EXPECT_EQ(derivedOf("118357,567", "1,0", "u8").get("stores"), "tile");         // 5 tiles in
  EXPECT_EQ(derivedOf("189,24,307,96", "2,1,3,0", "u8").get("stores"), "tile");  // 189 rows
  EXPECT_EQ(derivedOf("768,174762", "1,0", "u8").get("stores"), "tile");         // whole sectors
  EXPECT_EQ(derivedOf("6,537,250,38,2", "0,4,3,2,1", "f16").get("stores"), "tile");
}

// And over in groups of 4 tiles or more where the out group spans 3 to 8 tiles, its innermost
// dimension a cell's side or more.
TEST(PermuteAuto, CellsOfBytesAlignStoresOverMidOutGroups) {
  const ParamSet cells = derivedOf("1000,329,6,96,1", "2,1,3,4,0", "u8");
  EXPECT_EQ(cells.get("groups"), "in 96 x 6 | out 1000 | batch 329");
  EXPECT_EQ(cells.get("stores"), "aligned");
  EXPECT_EQ(derivedOf("24,67,74,86,13", "3,4,1,0,2", "u8").get("stores"), "aligned");  // out 1776
  // An out group of 3 x 9 x 3 x 25.
  EXPECT_EQ(derivedOf("9,25,96,3,3,652", "2,5,1,3,0,4", "u8").get("stores"), "tile");
  EXPECT_EQ(derivedOf("118357,567", "1,0", "u8").get("stores"), "tile");  // 462 tiles out
}

}  // namespace
}  // namespace kwb
