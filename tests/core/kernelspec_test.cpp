#include "core/kernelspec.h"

#include <gtest/gtest.h>

#include <random>

#include "core/error.h"

namespace kwb {
namespace {

// The tiled transpose of the workshop exercise, as a user writes it.
const char* kTransposeFile = R"(
/* kwb
name = "my_transpose"
summary = "a tiled transpose"
implements = "permute"
bytes = "2 * n * n * 4"
restrictions = ["TILE * ROWS <= max_threads_per_block"]

[params.n]
kind = "integer"
min = 32
max = "2^15"
multiple_of = 32
default = 4096
role = "problem"
as = "argument"

[params.TILE]
kind = "choice"
values = [16, 32, 64]
default = 32
as = "template"

[params.ROWS]
kind = "integer"
min = 1
max = 32
default = 8
as = "define"

[[buffers]]
name = "in"
count = "n * n"

[[buffers]]
name = "out"
count = "n * n"
role = "out"
fill = "zeros"

[[launch]]
kernel = "transpose<TILE, 4>"
grid = "ceil_div(n, TILE) ^ 2"
block = "TILE * ROWS"
shared_bytes = "TILE * (TILE + 1) * 4"
args = ["in", "out", "n"]
*/
template <int TILE, int U> __global__ void transpose(const float* in, float* out, int n) {}
)";

KernelSpec parse(const std::string& file) {
  return parseKernelSpec(specText(file, "t.cu"), "t.cu");
}

TEST(KernelSpec, ReadsParametersBuffersLaunchesAndChecks) {
  const KernelSpec spec = parse(kTransposeFile);
  EXPECT_EQ(spec.name, "my_transpose");
  EXPECT_EQ(spec.implements, "permute");
  ASSERT_EQ(spec.params.size(), 3u);
  EXPECT_EQ(spec.params[0].spec.name, "n");
  EXPECT_EQ(spec.params[0].spec.max, 32768);
  EXPECT_EQ(spec.params[0].spec.role, ParamRole::Problem);
  EXPECT_EQ(spec.params[1].binding, ParamBinding::Template);
  EXPECT_EQ(spec.params[1].spec.choices, (std::vector<std::string>{"16", "32", "64"}));
  EXPECT_EQ(spec.params[2].binding, ParamBinding::Define);
  ASSERT_EQ(spec.buffers.size(), 2u);
  EXPECT_EQ(spec.buffers[1].role, BufferRole::Out);
  EXPECT_EQ(spec.buffers[1].fill, BufferFill::Zeros);
  ASSERT_EQ(spec.launches.size(), 1u);
  const KernelLaunchSpec& l = spec.launches[0];
  EXPECT_EQ(l.templateArgs, (std::vector<std::string>{"TILE", "4"}));
  const std::map<std::string, double> values{
      {"n", 4096}, {"TILE", 32}, {"ROWS", 8}, {"max_threads_per_block", 1024}};
  EXPECT_DOUBLE_EQ(l.grid.evaluate(values), 128.0 * 128.0);
  EXPECT_DOUBLE_EQ(l.block.evaluate(values), 256);
  EXPECT_DOUBLE_EQ(l.sharedBytes->evaluate(values), 32 * 33 * 4);
  EXPECT_DOUBLE_EQ(spec.bytes->evaluate(values), 2.0 * 4096 * 4096 * 4);
  ASSERT_EQ(spec.restrictions.size(), 1u);
  EXPECT_EQ(spec.restrictions[0].evaluate(values), 1);
}

// Each mistake is one error naming the file's line and the field.
void expectError(const std::string& from, const std::string& to, const std::string& says,
                 const std::string& field, int linesBelow = 0) {
  std::string file = kTransposeFile;
  const auto at = file.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  file.replace(at, from.size(), to);
  try {
    parse(file);
    ADD_FAILURE() << "accepted: " << to;
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(message.find(says), std::string::npos) << message;
    EXPECT_EQ(e.param(), field) << message;
    const int line =
        static_cast<int>(std::count(file.begin(), file.begin() + at, '\n')) + 1 + linesBelow;
    EXPECT_EQ(message.rfind("t.cu:" + std::to_string(line) + ": ", 0), 0u) << message;
  }
}

TEST(KernelSpec, MistakesNameTheFieldAndTheLine) {
  // A top-level key written after a [[table]] belongs to that table, as TOML has it.
  expectError("name = \"in\"", "name = \"in\"\nbytes = \"4\"", "is not a key here",
              "buffers[0].bytes", 1);
  expectError("summary = ", "summery = ", "is not a key here", "summery");
  expectError("count = \"n * n\"\n\n[[buffers]]", "count = \"n * \"\n\n[[buffers]]",
              "does not parse", "buffers[0].count");
  expectError("restrictions = [\"TILE * ROWS", "restrictions = [\"TILES * ROWS", "item 1",
              "restrictions");
  expectError("default = 4096", "default = 4001", "multiple", "params.n.default");
  expectError("default = 32\nas", "default = 48\nas", "'48' is not allowed; allowed: one of 16",
              "params.TILE.default");
  expectError("args = [\"in\", \"out\", \"n\"]", "args = [\"in\", \"outt\", \"n\"]",
              "'outt' is neither a buffer", "launch[0].args");
  expectError("kernel = \"transpose<TILE, 4>\"", "kernel = \"transpose<TILE, ROWS>\"",
              "template argument 'ROWS'", "launch[0].kernel");
  expectError("kind = \"choice\"", "kind = \"choices\"", "allowed: integer, choice, list",
              "params.TILE.kind");
  expectError("fill = \"zeros\"", "fill = \"zero\"", "allowed: uniform, normal, zeros, iota",
              "buffers[1].fill");
  expectError("count = \"n * n\"\n\n[[buffers]]", "count = \"-4\"\n\n[[buffers]]", "is negative",
              "buffers[0].count");
}

TEST(KernelSpec, AFileWithoutASpecOrCheckSaysSo) {
  EXPECT_THROW(specText("__global__ void k() {}", "k.cu"), Error);
  EXPECT_THROW(specText("/* kwb name = \"x\"", "k.cu"), Error);
  std::string unchecked = kTransposeFile;
  unchecked.replace(unchecked.find("implements = \"permute\""), 22, "verification = \"none\"");
  EXPECT_TRUE(parse(unchecked).unchecked);
  std::string both = kTransposeFile;
  both.replace(both.find("implements = \"permute\""), 22,
               "implements = \"permute\"\nverification = \"none\"");
  EXPECT_THROW(parse(both), Error);
}

// Mutated specs are read or refused with an Error, never anything else: a seeded corpus of 2,000.
TEST(KernelSpec, AMutatedCorpusIsReadOrRefusedNeverCrashes) {
  const std::vector<std::string> values = {"\"\"",
                                           "-1",
                                           "0",
                                           "1e308",
                                           "\"2^70\"",
                                           "[]",
                                           "{}",
                                           "true",
                                           "\"(((\"",
                                           "\"n / 0\"",
                                           "\"ceil_div(n)\"",
                                           "[[1]]",
                                           "\"\\u0000\"",
                                           "\"TILE<\"",
                                           "9223372036854775807"};
  std::mt19937_64 random(20261123);
  const auto below = [&](std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(random);
  };
  const std::string original = specText(kTransposeFile, "t.cu");
  int read = 0, refused = 0;
  for (int i = 0; i < 2000; ++i) {
    std::string spec = original;
    for (std::size_t k = 1 + below(3); k > 0; --k) {
      const std::size_t at = below(spec.size());
      switch (below(4)) {
        case 0: spec[at] = static_cast<char>(below(256)); break;
        case 1: spec.erase(at, below(30) + 1); break;
        case 2: spec.insert(at, spec.substr(below(spec.size()), below(40))); break;
        default: {
          const std::size_t eq = spec.find(" = ", at);
          if (eq == std::string::npos) break;
          const std::size_t end = spec.find('\n', eq);
          spec.replace(eq + 3, (end == std::string::npos ? spec.size() : end) - eq - 3,
                       values[below(values.size())]);
        }
      }
    }
    try {
      parseKernelSpec(spec, "t.cu");
      ++read;
    } catch (const Error& e) {
      ++refused;
      EXPECT_EQ(std::string(e.what()).rfind("t.cu:", 0), 0u) << e.what();
    }
  }
  EXPECT_GT(refused, 1000);
  EXPECT_GT(read, 0);
}

}  // namespace
}  // namespace kwb

namespace kwb {
namespace {

constexpr const char* kListFile = R"spec(/* kwb
name = "t"
verification = "none"
restrictions = ["shape_0 * shape_1 <= 4096"]
[params.shape]
kind = "list"
min = 1
max = 100000
max_length = 2
default = "64,32"
role = "problem"
[params.block_size]
default = 128
min = 32
max = 1024
[[buffers]]
name = "x"
count = "shape_0 * shape_1"
[[buffers]]
name = "y"
count = "shape_0 * shape_1"
role = "out"
[[launch]]
kernel = "k"
grid = "ceil_div(shape_0 * shape_1, block_size)"
block = "block_size"
args = ["x", "y", "shape_0", "shape_1 * 2"]
[reference]
kernel = "r"
block = "64"
tolerance = 1e-6
*/)spec";

TEST(KernelSpec, ListItemsAndArgumentExpressionsAndTheReferenceLaunch) {
  std::string file = kListFile;
  file.replace(file.find("verification = \"none\"\n"), 22, "");
  const KernelSpec spec = parseKernelSpec(specText(file, "t.cu"), "t.cu");
  ParamSet params;
  params.set("shape", "64,32");
  params.set("block_size", "128");
  const auto values = expressionValues(spec, params, nullptr);
  EXPECT_EQ(values.at("shape_0"), 64);
  EXPECT_EQ(values.at("shape_1"), 32);
  const auto& args = spec.launches[0].args;
  ASSERT_EQ(args.size(), 4u);
  EXPECT_FALSE(args[0].value.has_value());
  EXPECT_EQ(args[3].value->evaluate(values), 64);
  ASSERT_TRUE(spec.reference.has_value());
  EXPECT_EQ(spec.reference->kernel, "r");
  EXPECT_EQ(spec.reference->block.evaluate(values), 64);  // its own
  EXPECT_EQ(spec.reference->grid.evaluate(values), 16);   // the launch's
  EXPECT_EQ(spec.reference->args.size(), 4u);             // the launch's
  checkRestrictions(spec, params, nullptr);
  params.set("shape", "128,64");
  try {
    checkRestrictions(spec, params, nullptr);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.param(), "shape");
    EXPECT_NE(std::string(e.what()).find("does not hold for shape=128,64"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace kwb
