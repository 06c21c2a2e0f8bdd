#include "core/memcheckreport.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace kwb {
namespace {

// compute-sanitizer's memcheck over `kwb run oob.cu` on an H100, recorded: the program's own
// lines come between memcheck's, and its host backtrace is left out.
TEST(MemcheckReport, ReadsTheRecordedOutOfBoundsRead) {
  std::ifstream in(KWB_FIXTURES_DIR "/sanitizer/memcheck_oob.txt");
  std::stringstream text;
  text << in.rdbuf();
  const MemcheckReport report = parseMemcheck(text.str());
  EXPECT_TRUE(report.complete);
  EXPECT_EQ(report.errors, 1u);
  ASSERT_EQ(report.findings.size(), 1u);
  const MemcheckFinding& f = report.findings[0];
  EXPECT_EQ(f.what, "Invalid __global__ read of size 4 bytes");
  EXPECT_EQ(f.kernel, "shift+0xc0");
  EXPECT_EQ(f.file, "oob.cu");
  EXPECT_EQ(f.line, 31);
  EXPECT_EQ(f.thread, "thread (103,0,0) in block (7,0,0)");
  EXPECT_EQ(f.address.rfind("Access to 0x7fd50a600fa0 is out of bounds, is 1 bytes after", 0), 0u)
      << f.address;
}

TEST(MemcheckReport, CleanAndCutShort) {
  const MemcheckReport clean = parseMemcheck(
      "========= COMPUTE-SANITIZER\nok\n"
      "========= ERROR SUMMARY: 0 errors\n");
  EXPECT_TRUE(clean.complete);
  EXPECT_EQ(clean.errors, 0u);
  EXPECT_TRUE(clean.findings.empty());
  const MemcheckReport cut = parseMemcheck(
      "========= Invalid __global__ write of size 4 bytes\n"
      "=========     at k+0x10\n");
  EXPECT_FALSE(cut.complete);
  ASSERT_EQ(cut.findings.size(), 1u);
  EXPECT_EQ(cut.findings[0].kernel, "k+0x10");
  EXPECT_TRUE(cut.findings[0].file.empty());
}

}  // namespace
}  // namespace kwb
