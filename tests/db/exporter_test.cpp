#include "db/exporter.h"

#include <gtest/gtest.h>

#include <sstream>

#include "db/testdb.h"

namespace kwb {
namespace {

std::vector<RunRecord> records() {
  RunRecord a;
  a.id = 1;
  a.deviceName = "NVIDIA H100 80GB HBM3";
  a.result = testing::fakeRun("memcpy", "f32", 1795255445000);
  a.tags = {"baseline", "report"};
  RunRecord b;
  b.id = 2;
  b.deviceName = "GPU, with \"quotes\"";
  b.result = testing::fakeRun("vectorized", "f16", 1795255446000);
  b.result.status = RunStatus::Failed;
  b.result.error = "line one\nline two";
  return {a, b};
}

TEST(Exporter, CsvHasAHeaderAndQuotesWhatNeedsIt) {
  std::ostringstream out;
  exportRuns(out, records(), ExportFormat::Csv);
  const std::string csv = out.str();
  EXPECT_EQ(csv.rfind("id,started_at,device,family,variant,dtype,", 0), 0u);
  EXPECT_NE(csv.find("1,2026-11-21T10:04:05Z,NVIDIA H100 80GB HBM3,copy,memcpy,f32,"),
            std::string::npos);
  EXPECT_NE(csv.find("\"GPU, with \"\"quotes\"\"\""), std::string::npos);
  EXPECT_NE(csv.find("\"line one\nline two\""), std::string::npos);
  EXPECT_NE(csv.find("\"baseline, report\""), std::string::npos);
}

// Text that arrives in tags, notes or through a merge is never run by a spreadsheet.
TEST(Exporter, CsvCellsNeverStartAFormula) {
  std::vector<RunRecord> runs = records();
  runs[0].tags = {"=HYPERLINK(\"http://x\")"};
  runs[1].deviceName = "@SUM(A1:A9)";
  runs[1].result.error = "+1";
  std::ostringstream out;
  exportRuns(out, runs, ExportFormat::Csv);
  const std::string csv = out.str();
  EXPECT_NE(csv.find("\"'=HYPERLINK(\"\"http://x\"\")\""), std::string::npos) << csv;
  EXPECT_NE(csv.find(",'@SUM(A1:A9),"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",'+1,"), std::string::npos) << csv;
  EXPECT_EQ(csv.find(",="), std::string::npos);
}

TEST(Exporter, JsonParsesBackWithEveryRun) {
  std::ostringstream out;
  exportRuns(out, records(), ExportFormat::Json);
  const auto json = nlohmann::json::parse(out.str());
  ASSERT_EQ(json.size(), 2u);
  EXPECT_EQ(json[0]["id"], 1);
  EXPECT_EQ(json[0]["tags"], (std::vector<std::string>{"baseline", "report"}));
  EXPECT_EQ(json[0]["samples_s"].size(), 3u);
  EXPECT_EQ(json[1]["status"], "failed");
  EXPECT_EQ(json[1]["error"], "line one\nline two");
}

TEST(Exporter, EmptyHistoryStillGivesValidFiles) {
  std::ostringstream csv;
  exportRuns(csv, {}, ExportFormat::Csv);
  const std::string text = csv.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);
  std::ostringstream json;
  exportRuns(json, {}, ExportFormat::Json);
  EXPECT_TRUE(nlohmann::json::parse(json.str()).empty());
}

}  // namespace
}  // namespace kwb
