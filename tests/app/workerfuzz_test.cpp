// The worker against lines a hostile or broken peer may send: each gets an answer (or none, for a
// line it cannot read an id from) and the worker goes on answering valid requests. Seeded, so
// that a failure reproduces.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "app/workerharness.h"
#include "core/protocol.h"

namespace kwb {
namespace {

using testing::WorkerHarness;

// Valid requests of every kind; a job's family or values are chosen so that validation, not a
// GPU, answers it, and the harness's worker has no device to run one on anyway.
const std::vector<std::string> kSeeds = {
    R"({"v":2,"type":"list","id":"a"})",
    R"({"v":2,"type":"devices","id":"b"})",
    R"({"v":2,"type":"resolve","id":"c","family":"elementwise","variant":"packed","params":{"n":"2^20","block_size":128}})",
    R"({"v":2,"type":"run","id":"d","family":"copy","variant":"memcpy","params":{"n":"2^40"},"options":{"budget_s":0.01,"mode":"hot","metrics":"memory","tags":["x"]}})",
    R"({"v":2,"type":"sweep","id":"e","family":"permute","variant":"tiled","params":{"shape":"64,64"},"axes":["tile_size=16,32","padding=off,on"],"options":{"min_samples":10}})",
    R"({"v":2,"type":"sass","id":"f","family":"giou","variant":"fused","params":{"batch":"4"}})",
    R"({"v":2,"type":"cancel","id":"g","target":"nothing"})",
};

// JSON fragments that stand where a value is expected.
const std::vector<std::string> kValues = {
    "null",
    "true",
    "[]",
    "{}",
    "-1",
    "1e999",
    "18446744073709551616",
    "\"\"",
    "\"\\u0000\"",
    "[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]",
    "{\"a\":{\"b\":{}}}",
    "0.5",
    "\"\xff\xfe\"",
};

class Mutator {
 public:
  explicit Mutator(std::uint64_t seed) : random_(seed) {}

  std::string line() {
    std::string s = pick(kSeeds);
    if (below(20) == 0) return noise();
    for (std::size_t k = 1 + below(4); k > 0; --k) mutate(s);
    for (char& c : s)
      if (c == '\n') c = ' ';  // one line each: a line end would split it in two
    return s;
  }

 private:
  std::size_t below(std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(random_);
  }
  const std::string& pick(const std::vector<std::string>& from) { return from[below(from.size())]; }

  std::string noise() {
    std::string s(below(200), ' ');
    for (char& c : s) c = static_cast<char>(below(256));
    return s;
  }

  void mutate(std::string& s) {
    if (s.empty()) {
      s = pick(kValues);
      return;
    }
    const std::size_t at = below(s.size());
    switch (below(7)) {
      case 0: s[at] = static_cast<char>(below(256)); break;  // a byte changed
      case 1: s.erase(at, below(12) + 1); break;             // bytes dropped
      case 2: s.insert(at, s.substr(at, below(20))); break;  // bytes repeated
      case 3: s.resize(at); break;                           // cut short
      case 4: s = "{\"v\":1,\"x\":" + std::string(400 + below(5000), '[') + "}"; break;  // deep
      default: {
        // A value replaced by one of another type: after a ':' up to the next ',' or '}'.
        const std::size_t colon = s.find(':', at);
        if (colon == std::string::npos) break;
        const std::size_t end = s.find_first_of(",}", colon);
        s.replace(colon + 1, (end == std::string::npos ? s.size() : end) - colon - 1,
                  pick(kValues));
      }
    }
  }

  std::mt19937_64 random_;
};

bool isShutdown(const std::string& line) {
  try {
    return std::holds_alternative<protocol::ShutdownRequest>(protocol::decodeRequest(line).body);
  } catch (const protocol::DecodeError&) {
    return false;
  }
}

TEST(WorkerFuzz, EveryLineIsAnsweredAndTheWorkerGoesOn) {
  constexpr int kLines = 5000;
  WorkerHarness worker(nullptr, /*device=*/64);  // no such device: no job reaches a GPU
  Mutator mutator(20261123);
  std::size_t from = 0;
  int sent = 0;
  for (int i = 0; i < kLines; ++i) {
    const std::string line = mutator.line();
    if (isShutdown(line)) continue;  // a valid shutdown ends the worker, as it should
    worker.sendRaw(line);
    ++sent;
    // A valid request right after: answered, so the worker lived through the line before.
    const std::string probe = "p" + std::to_string(i);
    worker.send(protocol::Request{probe, protocol::CancelRequest{"no-such-job"}});
    const auto reply = worker.output().waitFor(WorkerHarness::is("error", probe), &from, 10);
    ASSERT_FALSE(reply.is_null()) << "no answer after line " << i << ": " << line;
    ASSERT_EQ(reply["code"], "usage");
  }
  EXPECT_GT(sent, kLines * 9 / 10);
  EXPECT_EQ(worker.finish(), 0);
  for (const auto& reply : worker.output().lines())
    EXPECT_FALSE(nlohmann::json::parse(reply).is_discarded()) << "every reply is one JSON line";
}

}  // namespace
}  // namespace kwb
