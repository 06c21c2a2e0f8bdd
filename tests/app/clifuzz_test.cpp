// The command line against mutated argument lists: never a crash or a signal's exit code, and a
// refusal is one sentence on one line that names what was wrong. Seeded, so that a failure
// reproduces. Every list names a device that does not exist: nothing reaches a GPU.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "app/cli/cliapp.h"
#include "app/cli/exitcodes.h"
#include "core/format.h"
#include "db/testdb.h"

namespace kwb {
namespace {

// Commands as people type them, every option of each used somewhere.
const std::vector<std::vector<std::string>> kCommands = {
    {"list"},
    {"list", "permute"},
    {"list", "--metrics"},
    {"run", "copy", "vectorized", "n=2^20", "-p", "block_size=128", "--budget", "0.1"},
    {"run", "elementwise", "packed", "op=gelu", "dtype=bf16", "--mode", "hot", "--min-samples",
     "20", "--max-samples", "50", "--target-rsd", "0.01", "--seed", "7", "--metrics", "memory"},
    {"sweep", "permute", "tiled", "-s", "tile_size=16,32", "-s", "padding=off,on", "--verify-only"},
    {"sass", "elementwise", "packed", "pack_size=4", "--summary"},
    {"history", "--family", "copy", "--since", "7d", "--until", "2030-01-01", "--limit", "5",
     "--text", "relu", "--tag", "x", "--status", "ok", "--dtype", "f32", "--device", "H100"},
    {"export", "--format", "json", "--samples", "--variant", "memcpy"},
    {"lesson"},
    {"lesson", "permute-5-padding"},
    {"lesson", "permute-5-padding", "--predict", "1.5", "--budget", "0.1"},
    {"--json", "devices"},
};

const std::vector<std::string> kValues = {
    "",
    "-1",
    "0",
    "1e308",
    "nan",
    "inf",
    "18446744073709551616",
    "2^64",
    "1<<70",
    "-",
    "--",
    "=",
    "a=b=c",
    "n=",
    "=5",
    "\x1b[2J",
    "\xff\xfe",
    "copy",
    "permute",
    "block_size=33",
    "shape=0,0",
    "perm=1,1",
    "9223372036854775807d",
    "--help",
    "--version",
    std::string(3000, '9'),
    "/",
    "%_'\";--",
};

const std::vector<std::string> kOptions = {"--budget",   "--mode",        "--seed",       "--limit",
                                           "--since",    "--text",        "-p",           "-s",
                                           "--metrics",  "--format",      "--predict",    "--json",
                                           "--no-store", "--min-samples", "--max-samples"};

class ArgumentMutator {
 public:
  explicit ArgumentMutator(std::uint64_t seed) : random_(seed) {}

  std::vector<std::string> next() {
    std::vector<std::string> args = kCommands[below(kCommands.size())];
    for (std::size_t k = 1 + below(3); k > 0; --k) {
      const std::size_t at = below(args.size() + 1);
      switch (below(5)) {
        case 0:
          if (at < args.size()) args[at] = pick(kValues);
          break;
        case 1:
          if (at < args.size()) args.erase(args.begin() + static_cast<std::ptrdiff_t>(at));
          break;
        case 2:
          args.insert(args.begin() + static_cast<std::ptrdiff_t>(at),
                      {pick(kOptions), pick(kValues)});
          break;
        case 3:
          if (at < args.size()) args[at] += pick(kValues);
          break;
        default: args.insert(args.begin() + static_cast<std::ptrdiff_t>(at), pick(kValues));
      }
    }
    return args;
  }

 private:
  std::size_t below(std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(random_);
  }
  const std::string& pick(const std::vector<std::string>& from) { return from[below(from.size())]; }
  std::mt19937_64 random_;
};

TEST(CliFuzz, NoCrashAndEveryRefusalIsOneLine) {
  testing::TempDir dir;
  ArgumentMutator mutator(20261123);
  int refused = 0;
  for (int i = 0; i < 5000; ++i) {
    std::vector<std::string> args = mutator.next();
    args.insert(args.begin(), {"--db", dir.file("h.sqlite"), "--device", "99"});
    std::istringstream in;
    std::ostringstream out, err;
    const int code = runCli(args, in, out, err);
    std::string shown;
    for (const auto& a : args) shown += " [" + a.substr(0, 40) + "]";
    ASSERT_LT(code, 128) << shown;
    ASSERT_NE(code, kExitFailed) << "an internal error: " << err.str() << shown;
    if (code != kExitBadInput) continue;
    ++refused;
    const std::string message = err.str();
    ASSERT_EQ(message.rfind("kwb: ", 0), 0u) << message << shown;
    const std::size_t lines =
        static_cast<std::size_t>(std::count(message.begin(), message.end(), '\n'));
    ASSERT_LE(lines, message.find("--help") == std::string::npos ? 1u : 2u) << message << shown;
    ASSERT_LT(message.size(), 700u) << message.substr(0, 700) << shown;
    for (const char c : message)
      ASSERT_FALSE(static_cast<unsigned char>(c) < 0x20 && c != '\n') << "a control byte" << shown;
    // It names what it refuses: an argument as given (its start, as long ones are shortened),
    // or the parameter, option or command that is wrong or missing.
    const std::string sentence = message.substr(0, message.find('\n'));
    bool named = false;
    for (const auto& a : args)
      named =
          named || (!a.empty() && sentence.find(printable(a.substr(0, 30))) != std::string::npos);
    for (const char* name : {"family", "variant", "command", "parameter '", "--", "''"})
      named = named || sentence.find(name) != std::string::npos;
    const std::size_t colon = sentence.find(": ", 5);  // "kwb: NAME: what is wrong"
    named = named || (colon != std::string::npos &&
                      sentence.substr(5, colon - 5).find(' ') == std::string::npos);
    ASSERT_TRUE(named) << sentence << shown;
  }
  EXPECT_GT(refused, 2500);
}

}  // namespace
}  // namespace kwb
