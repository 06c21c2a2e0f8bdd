// The worker protocol without a GPU: every request here is answered before a device is needed,
// so the replies are the same on any machine. The recorded session is tests/fixtures/worker/.
#include <gtest/gtest.h>

#include <fstream>

#include "app/workerharness.h"
#include "measure/devicequery.h"

namespace kwb {
namespace {

using nlohmann::json;
using testing::WorkerHarness;

// Every key of `expected` is in `actual` with the same value; objects and arrays are compared
// the same way, element by element.
bool contains(const json& actual, const json& expected) {
  if (expected.is_array()) {
    if (!actual.is_array() || actual.size() != expected.size()) return false;
    for (std::size_t i = 0; i < expected.size(); ++i)
      if (!contains(actual[i], expected[i])) return false;
    return true;
  }
  if (!expected.is_object()) return actual == expected;
  if (!actual.is_object()) return false;
  for (const auto& [key, value] : expected.items())
    if (!actual.contains(key) || !contains(actual[key], value)) return false;
  return true;
}

std::vector<std::string> readLines(const std::string& path) {
  std::ifstream file(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(file, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

TEST(Worker, AnswersTheRecordedSession) {
  const auto requests = readLines(KWB_FIXTURES_DIR "/worker/no_gpu_session.in.jsonl");
  const auto expected = readLines(KWB_FIXTURES_DIR "/worker/no_gpu_session.out.jsonl");
  ASSERT_FALSE(requests.empty());
  WorkerHarness worker;
  for (const auto& line : requests) worker.sendRaw(line);
  EXPECT_EQ(worker.finish(), 0);
  const auto replies = worker.output().lines();
  ASSERT_EQ(replies.size(), expected.size());
  for (std::size_t i = 0; i < replies.size(); ++i) {
    EXPECT_TRUE(contains(json::parse(replies[i]), json::parse(expected[i])))
        << "reply " << i << ": " << replies[i] << "\nexpected at least: " << expected[i];
  }
}

TEST(Worker, ListDescribesEveryVariantWithItsParameters) {
  WorkerHarness worker;
  worker.send(protocol::Request{"l", protocol::ListRequest{}});
  auto list = worker.output().waitFor(WorkerHarness::is("list", "l"));
  ASSERT_FALSE(list.is_null());
  ASSERT_FALSE(list["families"].empty());
  const auto& copy = list["families"][0];
  EXPECT_EQ(copy["name"], "copy");
  EXPECT_EQ(copy["variants"][1]["params"][2]["name"], "block_size");
  EXPECT_EQ(copy["variants"][1]["params"][2]["multiple_of"], 32);
}

TEST(Worker, DevicesWithoutAGpuSaysSo) {
  if (deviceCount() > 0) GTEST_SKIP() << "this machine has a CUDA device";
  WorkerHarness worker;
  worker.send(protocol::Request{"d", protocol::DevicesRequest{}});
  auto reply = worker.output().waitFor(WorkerHarness::is("error", "d"));
  ASSERT_FALSE(reply.is_null());
  EXPECT_EQ(reply["code"], "no_device");
  EXPECT_NE(reply["message"].get<std::string>().find("no CUDA device"), std::string::npos);
}

TEST(Worker, ResolveWithoutAGpuSaysWhyThereAreNoDerivedValues) {
  if (deviceCount() > 0) GTEST_SKIP() << "this machine has a CUDA device";
  WorkerHarness worker;
  worker.send(
      protocol::Request{"q", protocol::ResolveRequest{{"elementwise", "packed", {{"n", "2^20"}}}}});
  auto reply = worker.output().waitFor(WorkerHarness::is("resolved", "q"));
  ASSERT_FALSE(reply.is_null());
  EXPECT_EQ(reply["params"]["n"], "1048576");
  EXPECT_TRUE(reply["derived"].is_null());
  EXPECT_TRUE(reply["bytes"].is_null());
  EXPECT_NE(reply["no_device"].get<std::string>().find("no CUDA device"), std::string::npos);
}

TEST(Worker, SassRequestsAreCheckedAtOnceAndNeedADevice) {
  WorkerHarness worker;
  worker.send(protocol::Request{
      "bad", protocol::SassRequest{{"elementwise", "packed", {{"pack_size", "3"}}}}});
  auto refused = worker.output().waitFor(WorkerHarness::is("error", "bad"));
  ASSERT_FALSE(refused.is_null());
  EXPECT_EQ(refused["code"], "param");
  EXPECT_EQ(refused["param"], "pack_size");
  if (deviceCount() > 0) GTEST_SKIP() << "this machine has a CUDA device";
  worker.send(protocol::Request{"s", protocol::SassRequest{{"elementwise", "packed", {}}}});
  auto reply = worker.output().waitFor(WorkerHarness::is("error", "s"));
  ASSERT_FALSE(reply.is_null());
  EXPECT_EQ(reply["code"], "no_device");
}

TEST(Worker, TuneRequestsAreCheckedAtOnceAndNeedADevice) {
  WorkerHarness worker;
  TuneSettings bad;
  bad.axes = {"block_size=64,128"};
  bad.strategy = "bayes";
  worker.send(protocol::Request{"bad", protocol::TuneRequest{{"copy", "vectorized", {}}, bad, {}}});
  auto refused = worker.output().waitFor(WorkerHarness::is("error", "bad"));
  ASSERT_FALSE(refused.is_null());
  EXPECT_EQ(refused["param"], "strategy");
  TuneSettings restricted;
  restricted.axes = {"block_size=64,128"};
  restricted.restrictions = {"threads < 4"};
  worker.send(
      protocol::Request{"r", protocol::TuneRequest{{"copy", "vectorized", {}}, restricted, {}}});
  refused = worker.output().waitFor(WorkerHarness::is("error", "r"));
  ASSERT_FALSE(refused.is_null());
  EXPECT_NE(refused["message"].get<std::string>().find("threads"), std::string::npos);
  if (deviceCount() > 0) GTEST_SKIP() << "this machine has a CUDA device";
  TuneSettings good;
  good.axes = {"block_size=64,128"};
  worker.send(protocol::Request{"t", protocol::TuneRequest{{"copy", "vectorized", {}}, good, {}}});
  auto reply = worker.output().waitFor(WorkerHarness::is("error", "t"));
  ASSERT_FALSE(reply.is_null());
  EXPECT_EQ(reply["code"], "no_device");
}

TEST(Worker, RunWithoutAGpuEndsInOneErrorAndTheWorkerLivesOn) {
  if (deviceCount() > 0) GTEST_SKIP() << "this machine has a CUDA device";
  WorkerHarness worker;
  worker.send({{"v", protocol::kVersion},
               {"type", "run"},
               {"id", "r"},
               {"family", "copy"},
               {"variant", "memcpy"}});
  auto reply = worker.output().waitFor(WorkerHarness::is("error", "r"));
  ASSERT_FALSE(reply.is_null());
  EXPECT_EQ(reply["code"], "no_device");
  worker.send(protocol::Request{"after", protocol::ListRequest{}});
  EXPECT_FALSE(worker.output().waitFor(WorkerHarness::is("list", "after")).is_null());
}

// The lines that once ended the worker: each now gets an error naming the field, and the worker
// answers the next request.
TEST(Worker, MalformedLinesAreAnsweredAndTheWorkerGoesOn) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const std::vector<std::pair<std::string, std::string>> lines = {
      {R"({"v":2,"type":"cancel","id":"c","target":null})", "target"},
      {R"({"v":2,"type":"run","id":"r","family":{},"variant":"memcpy"})", "family"},
      {R"({"v":2,"type":"sass","id":"s","family":"copy","variant":[1]})", "variant"},
      {R"({"v":2,"type":"resolve","id":"q","family":7,"variant":"memcpy"})", "family"},
      {R"({"v":2,"type":"run","id":"p","family":"copy","variant":"memcpy","params":{"n":)" + deep +
           "}}",
       "params.n"},
      {R"({"v":2,"type":"run","id":"o","family":"copy","variant":"memcpy","options":{"seed":"x"}})",
       "options.seed"},
      {"\xff\xfe", ""},
  };
  WorkerHarness worker(nullptr, /*device=*/64);
  std::size_t from = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto& [line, field] = lines[i];
    worker.sendRaw(line);
    const json error = worker.output().waitFor(WorkerHarness::is("error"), &from, 10);
    ASSERT_FALSE(error.is_null()) << line.substr(0, 80);
    EXPECT_EQ(error["code"], "usage");
    if (!field.empty()) {
      EXPECT_NE(error["message"].get<std::string>().find("\"" + field + "\""), std::string::npos)
          << error.dump();
    }
    const std::string probe = "after" + std::to_string(i);
    worker.send(protocol::Request{probe, protocol::ListRequest{}});
    EXPECT_FALSE(worker.output().waitFor(WorkerHarness::is("list", probe), &from, 10).is_null());
  }
  EXPECT_EQ(worker.finish(), 0);
}

}  // namespace
}  // namespace kwb
