#include "core/protocol.h"

#include <gtest/gtest.h>

#include <fstream>

#include "core/jsoncodec.h"

namespace kwb {
namespace {

TEST(Protocol, EncodesOneLinePerMessage) {
  const std::string line = protocol::encode(protocol::cancelRequest("c1", "r1"));
  EXPECT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1);
  const auto message = protocol::decode(line);
  EXPECT_EQ(message.type, "cancel");
  EXPECT_EQ(message.id, "c1");
  EXPECT_EQ(message.body["target"], "r1");
}

TEST(Protocol, RejectsWhatIsNotAMessage) {
  for (const char* bad :
       {"", "not json", "[1,2]", "{\"type\":\"list\"}", "{\"v\":\"1\",\"type\":\"list\"}",
        "{\"v\":2,\"type\":\"list\"}", "{\"v\":1}", "{\"v\":1,\"type\":3}",
        "{\"v\":1,\"type\":\"list\",\"id\":7}"}) {
    try {
      protocol::decode(bad);
      ADD_FAILURE() << "accepted: " << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage) << bad;
    }
  }
}

TEST(Protocol, NamesBothVersionsOnMismatch) {
  try {
    protocol::decode(R"({"v":2,"type":"list"})");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("protocol version 2"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("speaks 1"), std::string::npos);
  }
}

TEST(Protocol, RepliesCarryTheirFields) {
  RunResult r;
  r.family = "copy";
  r.variant = "memcpy";
  const auto result = protocol::result("r1", 3, r, 42);
  EXPECT_EQ(result["v"], protocol::kVersion);
  EXPECT_EQ(result["type"], "result");
  EXPECT_EQ(result["index"], 3);
  EXPECT_EQ(result["run_id"], 42);
  EXPECT_EQ(result["run"]["variant"], "memcpy");
  EXPECT_TRUE(protocol::result("r1", 0, r, std::nullopt)["run_id"].is_null());

  const auto progress = protocol::progress("r1", 2, 8, 1.5, "copy/memcpy n=2^20");
  EXPECT_EQ(progress["done"], 2);
  EXPECT_EQ(progress["total"], 8);
  EXPECT_DOUBLE_EQ(progress["eta_s"].get<double>(), 1.5);

  const auto done = protocol::done("r1", 8, true);
  EXPECT_EQ(done["completed"], 8);
  EXPECT_EQ(done["cancelled"], true);

  const auto hello = protocol::hello("1.2.3");
  EXPECT_FALSE(hello.contains("id"));
  EXPECT_EQ(hello["protocol"], protocol::kVersion);
}

// A result recorded from a real worker run on an H100 still decodes: clients built against this
// version read what workers of this version write.
TEST(Protocol, RecordedGpuResultDecodes) {
  std::ifstream file(KWB_FIXTURES_DIR "/worker/h100_run.jsonl");
  ASSERT_TRUE(file) << "missing fixture";
  std::string line;
  std::vector<protocol::Message> messages;
  while (std::getline(file, line)) messages.push_back(protocol::decode(line));
  ASSERT_GE(messages.size(), 3u);
  EXPECT_EQ(messages.front().type, "hello");
  const auto result = std::find_if(messages.begin(), messages.end(),
                                   [](const auto& m) { return m.type == "result"; });
  ASSERT_NE(result, messages.end());
  const RunResult run = runResultFromJson(result->body.at("run"));
  EXPECT_EQ(run.family, "copy");
  EXPECT_EQ(run.status, RunStatus::Ok);
  EXPECT_TRUE(run.verification.passed);
  EXPECT_GE(run.stats.count, 10u);
  EXPECT_EQ(run.samples.size(), run.stats.count);
  EXPECT_GT(run.bandwidth, 0);
  EXPECT_GT(run.ceilingBandwidth, 0);
  EXPECT_EQ(messages.back().type, "done");
}

}  // namespace
}  // namespace kwb
