#include "core/sass.h"
#include "core/explain.h"

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

namespace kwb {
namespace {

std::string fixture(const char* name) {
  std::ifstream in(std::string(KWB_FIXTURES_DIR "/sass/") + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

constexpr const char* kPacked =
    "_ZN3kwb11elementwise12packedKernelILi4ELi4ELb1ENS0_4CastEf13__nv_bfloat16Li1EEEvT2_PT3_NS0_"
    "6InputsIT4_XT5_EEEl";
constexpr const char* kNaive =
    "_ZN3kwb11elementwise11naiveKernelINS0_4CastEf13__nv_bfloat16Li1EEEvT_PT0_NS0_6InputsIT1_XT2_"
    "EEEl";

// Real cuobjdump 13.0 output for an H100 build: a packed (4 per access) and a naive cast from
// bfloat16 to float, with the fat binary headers of other ELFs around them.
TEST(Sass, ParsesCuobjdumpOutputIntoFunctions) {
  const auto functions = parseCuobjdumpSass(fixture("cuobjdump_sm90.sass"));
  ASSERT_EQ(functions.size(), 2u);
  EXPECT_EQ(functions[0].symbol, kPacked);
  EXPECT_EQ(functions[1].symbol, kNaive);
  const std::string& packed = functions[0].listing;
  EXPECT_EQ(packed.find("/* 0x"), std::string::npos) << "encodings are dropped";
  EXPECT_EQ(packed.find("headerflags"), std::string::npos);
  EXPECT_EQ(packed.rfind("/*0000*/", 0), 0u);
  EXPECT_NE(packed.find("/*0690*/   @!P2 STG.E.128 desc[UR6][R36.64], R16 ;\n"), std::string::npos);
  EXPECT_EQ(summarizeSass(packed).instructions, 208u);
  EXPECT_EQ(summarizeSass(functions[1].listing).instructions, 32u);
}

TEST(Sass, APackedKernelMovesSixteenBytesPerStoreWhereTheNaiveOneMovesFour) {
  const auto functions = parseCuobjdumpSass(fixture("cuobjdump_sm90.sass"));
  ASSERT_EQ(functions.size(), 2u);
  const SassSummary packed = summarizeSass(functions[0].listing);
  const SassSummary naive = summarizeSass(functions[1].listing);
  EXPECT_EQ(packed.notable.at("STG.E.128"), 8u);
  EXPECT_EQ(packed.notable.at("LDG.E.64.CONSTANT"), 8u);  // four bfloat16 per load
  EXPECT_EQ(packed.count(SassClass::GlobalWide), 8u);
  EXPECT_EQ(packed.count(SassClass::GlobalNarrow), 10u);  // and the tail, one at a time
  EXPECT_EQ(naive.count(SassClass::GlobalWide), 0u);
  EXPECT_EQ(naive.notable.at("LDG.E.U16.CONSTANT"), 1u);
  EXPECT_EQ(naive.notable.at("STG.E"), 1u);
  EXPECT_EQ(naive.count(SassClass::Shared) + naive.count(SassClass::Barrier) +
                naive.count(SassClass::Shuffle),
            0u);
  EXPECT_EQ(notableText(naive), "LDG.E.U16.CONSTANT x1  STG.E x1");
}

TEST(Sass, ExplainNamesTheWiderAccessesOfThePackedKernel) {
  const auto functions = parseCuobjdumpSass(fixture("cuobjdump_sm90.sass"));
  ASSERT_EQ(functions.size(), 2u);
  const SassSummary packed = summarizeSass(functions[0].listing);
  const SassSummary naive = summarizeSass(functions[1].listing);
  const auto reading = readSassDifference(naive, packed);
  ASSERT_TRUE(reading);
  EXPECT_EQ(reading->rfind("global accesses in the machine code: 16- and 32-bit "
                           "(LDG.E.U16.CONSTANT x1  STG.E x1) -> 16-, 32-, 64- and 128-bit (",
                           0),
            0u)
      << *reading;
  EXPECT_NE(reading->find(": a 128-bit access moves what 4 32-bit ones did"), std::string::npos)
      << *reading;
  EXPECT_NE(readSassDifference(packed, naive)->find("narrower accesses"), std::string::npos);
  EXPECT_FALSE(readSassDifference(packed, packed));  // the same widths say nothing
  const SassSummary both = combinedSass({packed, naive});
  EXPECT_EQ(both.instructions, 240u);
  EXPECT_EQ(both.notable.at("STG.E.128"), 8u);
}

TEST(Sass, ASymbolPrintedAgainKeepsItsFirstListing) {
  const std::string text =
      "\t\tFunction : k\n        /*0000*/                   EXIT ;   /* 0x000000000000794d */\n"
      "\t\t..........\n\t\tFunction : k\n        /*0000*/   NOP ;\n";
  const auto functions = parseCuobjdumpSass(text);
  ASSERT_EQ(functions.size(), 1u);
  EXPECT_EQ(functions[0].listing, "/*0000*/        EXIT ;\n");
}

TEST(Sass, ElfListGivesEachArchitectureOnce) {
  EXPECT_EQ(parseCuobjdumpElfList(fixture("cuobjdump_lelf.txt")),
            std::vector<std::string>{"sm_90"});
  EXPECT_EQ(
      parseCuobjdumpElfList("ELF file    1: a.1.sm_80.cubin\nELF file    2: a.2.sm_90a.cubin\n"
                            "ELF file    3: a.3.sm_80.cubin\n"),
      (std::vector<std::string>{"sm_80", "sm_90a"}));
  EXPECT_TRUE(parseCuobjdumpElfList("").empty());
}

TEST(Sass, OpcodesSkipPredicatesAndKeepModifiers) {
  EXPECT_EQ(sassOpcode("/*0690*/   @!P2 STG.E.128 desc[UR6][R36.64], R16 ;"), "STG.E.128");
  EXPECT_EQ(sassOpcode("  /*0010*/        S2R R2, SR_TID.X ;"), "S2R");
  EXPECT_EQ(sassOpcode("/*0b70*/        NOP;"), "NOP");
  EXPECT_EQ(sassOpcode(".L_x_3:"), "");
  EXPECT_EQ(sassOpcode("code for sm_90"), "");
}

TEST(Sass, ClassesSeparateWideGlobalAccessesSharedMemoryBarriersAndShuffles) {
  EXPECT_EQ(classifySassOpcode("LDG.E.128"), SassClass::GlobalWide);
  EXPECT_EQ(classifySassOpcode("LDG.E.128.CONSTANT"), SassClass::GlobalWide);
  EXPECT_EQ(classifySassOpcode("ST.E.128"), SassClass::GlobalWide);
  EXPECT_EQ(classifySassOpcode("LDG.E"), SassClass::GlobalNarrow);
  EXPECT_EQ(classifySassOpcode("STG.E.64"), SassClass::GlobalNarrow);
  EXPECT_EQ(classifySassOpcode("LDS.U.128"), SassClass::Shared);
  EXPECT_EQ(classifySassOpcode("STS"), SassClass::Shared);
  EXPECT_EQ(classifySassOpcode("LDGSTS.E.BYPASS.128"), SassClass::Shared);
  EXPECT_EQ(classifySassOpcode("BAR.SYNC.DEFER_BLOCKING"), SassClass::Barrier);
  EXPECT_EQ(classifySassOpcode("SHFL.BFLY"), SassClass::Shuffle);
  EXPECT_EQ(classifySassOpcode("LDC.64"), SassClass::Other);
  EXPECT_EQ(classifySassOpcode("LDSM.16.M88.4"), SassClass::Shared);
  EXPECT_EQ(classifySassOpcode("FFMA"), SassClass::Other);
}

}  // namespace
}  // namespace kwb
