// The `kwb` command line's error paths and history commands; none of these needs a GPU.
#include "app/cli/cliapp.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "app/cli/exitcodes.h"
#include "core/stats.h"
#include "db/runstore.h"
#include "db/testdb.h"
#include "measure/buildinfo.h"
#include "measure/devicequery.h"

namespace kwb {
namespace {

struct Outcome {
  int code;
  std::string out;
  std::string err;
};

class CliTest : public ::testing::Test {
 protected:
  Outcome run(std::vector<std::string> args) {
    args.insert(args.begin(), {"--db", db()});
    std::istringstream in;
    std::ostringstream out;
    std::ostringstream err;
    const int code = runCli(args, in, out, err);
    return {code, out.str(), err.str()};
  }
  std::string db() const { return dir.file("history.sqlite"); }

  void expectBadInput(const std::vector<std::string>& args, const std::string& message) {
    const Outcome o = run(args);
    EXPECT_EQ(o.code, kExitBadInput) << o.err;
    EXPECT_NE(o.err.find(message), std::string::npos) << "stderr: " << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'),
              o.err.find("--help") == std::string::npos ? 1 : 2)
        << "one clear error, not a cascade: " << o.err;
  }

  testing::TempDir dir;
};

TEST_F(CliTest, HelpEverywhere) {
  for (const char* command :
       {"devices", "list", "run", "sweep", "history", "export", "lesson", "db", "worker"}) {
    Outcome o = run({command, "--help"});
    EXPECT_EQ(o.code, kExitOk) << command;
    EXPECT_NE(o.out.find("Usage"), std::string::npos) << command;
  }
  EXPECT_EQ(run({"--help"}).code, kExitOk);
}

TEST_F(CliTest, BadInputNamesTheParameterBeforeAnyDevice) {
  expectBadInput({"run", "matmul", "naive"},
                 "parameter 'family': 'matmul' is not a kernel family; allowed: copy");
  expectBadInput(
      {"run", "copy", "fast"},
      "parameter 'variant': 'fast' is not a variant of copy; allowed: memcpy, vectorized");
  expectBadInput({"run", "copy", "vectorized", "blocksize=64"},
                 "parameter 'blocksize': unknown parameter");
  expectBadInput({"run", "copy", "vectorized", "block_size=100"},
                 "parameter 'block_size': 100 is not a multiple of 32");
  expectBadInput({"run", "copy", "vectorized", "-p", "block_size=2048"},
                 "parameter 'block_size': 2048 is out of range; allowed: 32..1024");
  expectBadInput({"run", "copy", "vectorized", "n=0"}, "parameter 'n': 0 is out of range");
  expectBadInput({"run", "copy", "vectorized", "n=many"},
                 "parameter 'n': 'many' is not an integer");
  expectBadInput({"run", "copy", "vectorized", "dtype=f8"},
                 "allowed: one of f32, f16, bf16, f64, u8");
  expectBadInput({"run", "copy", "vectorized", "dtype=f64", "vector_bytes=4"},
                 "parameter 'vector_bytes'");
  expectBadInput({"run", "copy", "vectorized", "n=1", "n=2"}, "parameter 'n': is given twice");
  expectBadInput({"run", "copy", "vectorized", "n"}, "must look like name=value");
  expectBadInput({"run", "copy", "memcpy", "--mode", "warm"},
                 "--mode 'warm' is not allowed; allowed: cold, hot");
  expectBadInput({}, "a command is required; allowed: devices, list, run");
  expectBadInput({"db"}, "db needs a command; allowed: merge");
  // Every value is checked as the command line is read, before a device or a file is touched.
  expectBadInput({"run", "copy", "memcpy", "n=abc", "-p", "dtype=f16"}, "parameter 'n'");
  expectBadInput({"run", "copy", "memcpy", "--max-samples", "-1"}, "--max-samples: '-1'");
  expectBadInput({"run", "copy", "memcpy", "--seed", "-1"}, "--seed: '-1'");
  expectBadInput({"run", "copy", "memcpy", "--seed", "18446744073709551616"}, "--seed: ");
  expectBadInput({"lesson", "permute-5-padding", "--budget", "-1"}, "--budget: '-1'");
  expectBadInput({"lesson", "permute-5-padding", "--predict", "nan"}, "--predict: 'nan'");
  expectBadInput({"lesson", "permute-5-padding", "--predict", "1e308"}, "--predict: '1e308'");
  expectBadInput({"history", "--limit", "-1"}, "--limit: '-1'");
  expectBadInput({"history", "--limit", ""}, "--limit: ''");
  expectBadInput({"history", "--text", std::string(50000, 'a')}, "--text: a value of 50000");
  expectBadInput({"history", "--since", "9223372036854775807d"}, "is not a time");
  expectBadInput({"history", "--since", ""}, "--since: an empty value");
  expectBadInput({"list", ""}, "family: an empty value");
  expectBadInput({"export", "--format", "csv", "-o", ""}, "--output: an empty value");
  expectBadInput({"export", "--format", "csv", "-o", dir.file("")}, "is a folder");
  // What is echoed is shortened and its control bytes are shown, never sent to the terminal.
  const Outcome echoed = run({"run", "copy", "memcpy", "n=\x1b[2J" + std::string(100000, '7')});
  EXPECT_EQ(echoed.code, kExitBadInput);
  EXPECT_LT(echoed.err.size(), 400u) << echoed.err.size();
  EXPECT_EQ(echoed.err.find('\x1b'), std::string::npos);
  EXPECT_NE(echoed.err.find("\\x1B[2J"), std::string::npos) << echoed.err;
  expectBadInput({"run", "copy", "memcpy", "--min-samples", "3"},
                 "--min-samples: '3' is not allowed; allowed: a whole number from 10");
  expectBadInput({"run", "copy", "memcpy", "--budget", "0"},
                 "--budget: '0' is not allowed; allowed: a number above 0");
  expectBadInput({"sweep", "copy", "vectorized", "-s", "block_size=64:1024:*1"},
                 "parameter 'block_size': range step");
  expectBadInput({"sweep", "copy", "vectorized", "-s", "waves=1,2", "-s", "waves=3"},
                 "parameter 'waves': is swept twice");
  expectBadInput({"sweep", "copy", "vectorized", "-s", "waves=1,2", "waves=4"},
                 "parameter 'waves': is both swept and set");
  expectBadInput({"sweep", "copy", "vectorized", "-s", "n=2^20:2^28:*2", "-s", "waves=1,2", "-s",
                  "block_size=64"},
                 "one or two swept parameters, not 3");
  expectBadInput({"run", "copy", "memcpy", "--metrics", "memory,speed"},
                 "parameter 'metrics': 'speed' is neither a metric set (memory, occupancy");
  expectBadInput({"history", "--since", "last tuesday"}, "--since 'last tuesday' is not a time");
  expectBadInput({"export", "--format", "xml"},
                 "--format 'xml' is not allowed; allowed: csv, json");
  expectBadInput({"export", "--format", "csv", "--samples"}, "--samples needs --format json");
}

TEST_F(CliTest, CommandLineMistakesAreUsageErrors) {
  EXPECT_EQ(run({}).code, kExitBadInput);
  EXPECT_EQ(run({"bogus"}).code, kExitBadInput);
  EXPECT_EQ(run({"run", "copy"}).code, kExitBadInput);
  EXPECT_EQ(run({"sweep", "copy", "vectorized"}).code, kExitBadInput);  // no --sweep
  EXPECT_EQ(run({"export"}).code, kExitBadInput);                       // no --format
  EXPECT_EQ(run({"history", "--limit", "many"}).code, kExitBadInput);
  // --host where the command would run here all the same.
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--host", "gpu1", "tune", "--replay", "1"},
           {"--host", "gpu1", "run", "copy", "vectorized", "--sanitize"},
           {"--host", "gpu1", "devices", "--ceilings"},
           {"--host", "gpu1", "history"}}) {
    const Outcome o = run(args);
    EXPECT_EQ(o.code, kExitBadInput) << args[2];
    EXPECT_NE(o.err.find("--host is taken by devices, run, sweep, tune, sass and worker"),
              std::string::npos)
        << o.err;
  }
}

TEST_F(CliTest, NoDeviceIsOneSentenceAndItsOwnExitCode) {
  if (deviceCount() > 0) GTEST_SKIP() << "this machine has a CUDA device";
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"devices"},
           {"run", "copy", "memcpy"},
           {"sweep", "copy", "vectorized", "-s", "waves=1,2"},
           {"sweep", "copy", "vectorized", "-s", "waves=1,2", "--devices", "all"}}) {
    const Outcome o = run(args);
    EXPECT_EQ(o.code, kExitNoDevice) << args[0];
    EXPECT_EQ(o.err.rfind("kwb: no CUDA device", 0), 0u) << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  }
}

TEST_F(CliTest, ListShowsFamiliesAndParameters) {
  Outcome all = run({"list"});
  EXPECT_EQ(all.code, kExitOk);
  EXPECT_NE(all.out.find("vectorized"), std::string::npos);
  Outcome copy = run({"list", "copy"});
  EXPECT_NE(copy.out.find("32..1024, multiples of 32"), std::string::npos);
  Outcome json = run({"--json", "list"});
  EXPECT_EQ(nlohmann::json::parse(json.out)[0]["name"], "copy");
  expectBadInput({"list", "matmul"}, "parameter 'family'");
  Outcome permute = run({"list", "permute"});
  EXPECT_NE(permute.out.find("1 to 8 integers 0..7 separated by commas"), std::string::npos);
}

TEST_F(CliTest, VersionSaysWhatTheBuildRunsOn) {
  const Outcome version = run({"--version"});
  EXPECT_EQ(version.code, kExitOk);
  for (const char* line : {"kwb 0.", "\nCUDA runtime: ", "\nCUDA driver: ", "\nNVRTC: ",
                           "\nCUPTI: ", "\ncode for: SASS sm_"})
    EXPECT_NE(version.out.find(line), std::string::npos) << line << " in " << version.out;
  EXPECT_EQ(describeArchitectures("75-real;90"), "SASS sm_75, sm_90; PTX compute_90");
  EXPECT_EQ(describeArchitectures("90-virtual"), "SASS none; PTX compute_90");
}

TEST_F(CliTest, ListMetricsShowsEverySet) {
  Outcome sets = run({"list", "--metrics"});
  EXPECT_EQ(sets.code, kExitOk);
  for (const char* set : {"memory:", "occupancy:", "coalescing:", "shared:", "divergence:",
                          "flops:", "compute:", "dram__bytes_read.sum", "gpu__time_duration.sum"})
    EXPECT_NE(sets.out.find(set), std::string::npos) << set;
  Outcome json = run({"--json", "list", "--metrics"});
  EXPECT_EQ(nlohmann::json::parse(json.out).size(), 7u);
}

TEST_F(CliTest, DbMergeAddsAttendeesRunsOnce) {
  const std::string attendee = dir.file("attendee.sqlite");
  {
    RunStore store(attendee);
    store.upsertDevice(testing::fakeDevice("GPU-cccc", "NVIDIA L4"));
    store.insertRun(testing::fakeRun("memcpy", "f32", 1795255445000, "GPU-cccc"));
  }
  Outcome o = run({"db", "merge", attendee});
  EXPECT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("1 runs added, 0 already there, 1 device"), std::string::npos) << o.out;
  o = run({"--json", "db", "merge", attendee});
  EXPECT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("\"duplicates\": 1"), std::string::npos) << o.out;
  o = run({"history"});
  EXPECT_NE(o.out.find("NVIDIA L4"), std::string::npos) << o.out;
  o = run({"db", "merge", dir.file("missing.sqlite")});
  EXPECT_NE(o.code, kExitOk);
  EXPECT_NE(o.err.find("no such history database"), std::string::npos) << o.err;
  EXPECT_EQ(run({"db"}).code, kExitBadInput);
}

// Runs out as nvbench JSON (with sample files) and T4, nvbench JSON back in as imported runs; a
// bad file among the imports stores nothing.
TEST_F(CliTest, ExportsNvbenchAndT4AndImportsNvbench) {
  {
    RunStore store(db());
    store.upsertDevice(testing::fakeDevice("GPU-cccc", "NVIDIA L4"));
    store.insertRun(testing::fakeRun("memcpy", "f32", 1795255445000, "GPU-cccc"));
  }
  const std::string out = dir.file("runs.json");
  Outcome o = run({"export", "--format", "nvbench", "--samples", "-o", out});
  EXPECT_EQ(o.code, kExitOk) << o.err;
  EXPECT_TRUE(std::filesystem::exists(out + "-bin/0.bin"));
  o = run({"export", "--format", "t4"});
  EXPECT_EQ(o.code, kExitOk) << o.err;
  EXPECT_EQ(nlohmann::json::parse(o.out)["results"][0]["invalidity"], "correct");
  expectBadInput({"export", "--format", "nvbench", "--samples"}, "name it with -o FILE");
  expectBadInput({"export", "--format", "xml"}, "allowed: csv, json, nvbench, t4");

  std::ofstream(dir.file("cut.json")) << "{\"benchmarks\": [";
  o = run({"import", out, dir.file("cut.json")});
  EXPECT_EQ(o.code, kExitBadInput);
  EXPECT_NE(o.err.find("cut.json is not JSON, or is cut short"), std::string::npos) << o.err;
  EXPECT_EQ(RunStore(db()).count({}), 1u) << "nothing of the good file was stored either";
  o = run({"import", out});
  EXPECT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("(nvbench JSON 1.0.0): 1 runs added"), std::string::npos) << o.out;
  o = run({"history", "--family", "imported"});
  EXPECT_NE(o.out.find("imported/copy/memcpy"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("NVIDIA L4"), std::string::npos) << o.out;
}

TEST_F(CliTest, LessonsAreListedAndShownWithTheirCommands) {
  Outcome o = run({"lesson"});
  EXPECT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("permute-5-padding"), std::string::npos) << o.out;
  o = run({"lesson", "permute-5-padding"});
  EXPECT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("Before running: "), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("kwb run permute tiled dtype=f32 padding=on"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
            std::string::npos);
  expectBadInput({"lesson", "permute-9"}, "'permute-9' is not a lesson; allowed: elementwise-1");
  expectBadInput({"lesson", "--predict", "2"}, "--run and --predict need a lesson id");
  expectBadInput({"lesson", "permute-5-padding", "--predict", "-1"}, "--predict");
}

TEST_F(CliTest, HistoryAndExportReadTheStore) {
  {
    RunStore store(db());
    store.upsertDevice(testing::fakeDevice());
    store.insertRun(testing::fakeRun("memcpy", "f32", 1795255445000));
    const auto id = store.insertRun(testing::fakeRun("vectorized", "f16", 1795255446000));
    store.addTag(id, "baseline");
  }
  Outcome history = run({"history"});
  EXPECT_EQ(history.code, kExitOk);
  EXPECT_NE(history.out.find("copy/memcpy"), std::string::npos);
  EXPECT_NE(history.out.find("baseline"), std::string::npos);
  Outcome filtered = run({"history", "--variant", "memcpy"});
  EXPECT_EQ(filtered.out.find("copy/vectorized"), std::string::npos);
  Outcome limited = run({"history", "--limit", "1"});
  EXPECT_NE(limited.out.find("1 of 2 matching runs"), std::string::npos);
  Outcome json = run({"--json", "history", "--tag", "baseline"});
  EXPECT_EQ(nlohmann::json::parse(json.out).size(), 1u);

  const std::string csvPath = dir.file("runs.csv");
  Outcome csv = run({"export", "--format", "csv", "-o", csvPath});
  EXPECT_EQ(csv.code, kExitOk) << csv.err;
  std::ifstream file(csvPath);
  std::string header;
  std::getline(file, header);
  EXPECT_EQ(header.rfind("id,started_at", 0), 0u);
  Outcome withSamples = run({"export", "--format", "json", "--samples"});
  EXPECT_EQ(nlohmann::json::parse(withSamples.out)[0]["samples_s"].size(), 3u);

  Outcome unwritable = run({"export", "--format", "csv", "-o", dir.file("no/such/folder/x.csv")});
  EXPECT_EQ(unwritable.code, kExitDatabase);
}

TEST_F(CliTest, ABrokenDatabaseIsReportedAndNotOverwritten) {
  {
    std::ofstream file(db(), std::ios::binary);
    file << "definitely not SQLite; definitely not SQLite; definitely not SQLite; definitely not";
  }
  Outcome o = run({"history"});
  EXPECT_EQ(o.code, kExitDatabase);
  EXPECT_NE(o.err.find("kwb: "), std::string::npos);
  std::ifstream file(db(), std::ios::binary);
  std::string content((std::istreambuf_iterator<char>(file)), {});
  EXPECT_EQ(content.rfind("definitely not SQLite", 0), 0u);
}

// `kwb check` reads a kernel file's spec and compiles its defaults without a GPU; a compile error
// is FILE:LINE:COL, a spec error FILE:LINE: FIELD.
TEST_F(CliTest, CheckCompilesKernelFilesAndPointsAtMistakes) {
  const std::string spec = R"(/* kwb
name = "scale"
verification = "none"
[params.F]
kind = "choice"
values = [2, 3]
default = 2
as = "define"
[[buffers]]
name = "x"
count = "1024"
role = "inout"
[[launch]]
kernel = "scale"
grid = "4"
block = "256"
args = ["x"]
*/
)";
  const auto write = [&](const std::string& name, const std::string& text) {
    const std::string path = dir.file(name);
    std::ofstream(path) << text;
    return path;
  };
  const std::string good = write(
      "good.cu", spec + "extern \"C\" __global__ void scale(float* x) { x[threadIdx.x] *= F; }\n");
  Outcome o = run({"check", good});
  EXPECT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("spec ok, 1 kernel compiled for sm_90"), std::string::npos) << o.out;

  const std::string broken =
      write("broken.cu",
            spec + "extern \"C\" __global__ void scale(float* x) { x[threadIdx.x] *= G; }\n");
  o = run({"check", broken, "--arch", "75"});
  EXPECT_EQ(o.code, kExitBadInput);
  EXPECT_NE(o.err.find(broken + ":19:64: error:"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("error: identifier \"G\" is undefined"), std::string::npos) << o.err;

  std::string misspelt = spec;
  misspelt.replace(misspelt.find("block = "), 8, "blocks = ");
  o = run(
      {"check", write("spec.cu", misspelt + "extern \"C\" __global__ void scale(float*) {}\n")});
  EXPECT_EQ(o.code, kExitBadInput);
  EXPECT_NE(o.err.find("spec.cu:16: launch[0].blocks: is not a key here"), std::string::npos)
      << o.err;
}

}  // namespace
}  // namespace kwb

namespace kwb {
namespace {

// Every starting file `kwb new` writes compiles; `kwb code` shows what a run ran and how two
// runs' code differs.
TEST_F(CliTest, NewWritesStartingFilesThatCheckAndCodeShowsRunsCode) {
  for (const std::string implements : {"", "copy", "elementwise", "giou", "permute"}) {
    const std::string path = dir.file("k" + implements + ".cu");
    std::vector<std::string> args{"new", path};
    if (!implements.empty()) args.insert(args.end(), {"--implements", implements});
    EXPECT_EQ(run(args).code, kExitOk);
    const Outcome checked = run({"check", path});
    EXPECT_EQ(checked.code, kExitOk) << implements << ": " << checked.err;
  }
  expectBadInput({"new", dir.file("k.cu")}, "exists; give --force");
  expectBadInput({"new", dir.file("g.cu"), "--implements", "reduce"}, "has no starting file");

  std::int64_t ids[3];
  {
    RunStore store(db());
    RunResult r;
    r.family = "user";
    r.variant = "my_kernel";
    r.code = KernelCode{"k.cu", std::string(64, 'a'), "a\nb\nc\n", ""};
    ids[0] = store.insertRun(r);
    r.code = KernelCode{"k.cu", std::string(64, 'b'), "a\nB\nc\n", ""};
    ids[1] = store.insertRun(r);
    r.code.reset();
    r.family = "copy";
    r.variant = "memcpy";
    ids[2] = store.insertRun(r);
  }
  Outcome o = run({"code", std::to_string(ids[0])});
  EXPECT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("k.cu (sha256 aaaa"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("a\nb\nc\n"), std::string::npos) << o.out;
  o = run({"code", std::to_string(ids[0]), std::to_string(ids[1])});
  EXPECT_NE(o.out.find(" a\n-b\n+B\n c\n"), std::string::npos) << o.out;
  o = run({"code", std::to_string(ids[0]), std::to_string(ids[0])});
  EXPECT_NE(o.out.find("ran the same code"), std::string::npos) << o.out;
  expectBadInput({"code", std::to_string(ids[2])}, "not of a kernel file");
  expectBadInput({"code", "999"}, "no run 999");
}

}  // namespace
}  // namespace kwb

namespace kwb {
namespace {

// Two stored runs compared from their samples: a verdict with its interval, in text and JSON.
TEST_F(CliTest, CompareGivesAVerdictWithItsInterval) {
  std::int64_t ids[3];
  {
    RunStore store(db());
    RunResult r;
    r.family = "copy";
    r.variant = "memcpy";
    for (int i = 0; i < 50; ++i) r.samples.push_back(100e-6 * (1 + 0.001 * (i % 5)));
    r.stats = summarize(r.samples);
    ids[0] = store.insertRun(r);
    for (double& s : r.samples) s *= 0.8;
    r.stats = summarize(r.samples);
    ids[1] = store.insertRun(r);
    r.samples.clear();
    ids[2] = store.insertRun(r);
  }
  Outcome o = run({"compare", std::to_string(ids[0]), std::to_string(ids[1])});
  EXPECT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("0.800x the time"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("FASTER"), std::string::npos) << o.out;
  o = run({"--json", "compare", std::to_string(ids[1]), std::to_string(ids[0])});
  const auto j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["verdict"], "SLOWER");
  EXPECT_NEAR(j["ratio"].get<double>(), 1.25, 1e-9);
  expectBadInput({"compare", std::to_string(ids[0]), std::to_string(ids[2])},
                 "has no timing samples");
  expectBadInput({"compare", std::to_string(ids[0]), "999"}, "no run 999");
  expectBadInput({"compare", std::to_string(ids[0])}, "compare needs two runs");
}

// A baseline marked, later runs compared against it, regressions listed with their own exit code.
TEST_F(CliTest, BaselinesJudgeLaterRunsAndRegressionsAreListed) {
  std::int64_t base = 0, same = 0, slower = 0;
  {
    RunStore store(db());
    RunResult r;
    r.family = "copy";
    r.variant = "vectorized";
    r.problem.set("n", "1048576");
    r.startedAt = 1000;
    for (int i = 0; i < 50; ++i) r.samples.push_back(100e-6 * (1 + 0.001 * (i % 5)));
    r.stats = summarize(r.samples);
    base = store.insertRun(r);
    r.startedAt = 2000;
    same = store.insertRun(r);
    r.startedAt = 3000;
    for (double& x : r.samples) x *= 1.1;
    r.stats = summarize(r.samples);
    slower = store.insertRun(r);
  }
  Outcome o = run({"history", "--regressions"});
  EXPECT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("no configuration's newest run is slower"), std::string::npos) << o.out;
  expectBadInput({"compare", "--baseline", std::to_string(same)}, "has no baseline");

  o = run({"baseline", std::to_string(base)});
  EXPECT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("is the baseline of copy/vectorized n=2^20 cold\n"), std::string::npos)
      << o.out;
  o = run({"baseline"});
  EXPECT_NE(o.out.find("copy/vectorized"), std::string::npos) << o.out;

  o = run({"compare", "--baseline", std::to_string(same)});
  EXPECT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("1.000x the time"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("SAME"), std::string::npos) << o.out;

  o = run({"history", "--regressions"});
  EXPECT_EQ(o.code, kExitRegression) << o.out << o.err;
  EXPECT_NE(o.out.find("1.100x"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("SLOWER"), std::string::npos) << o.out;
  o = run({"--json", "history", "--regressions"});
  const auto j = nlohmann::json::parse(o.out);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["run"], slower);
  EXPECT_EQ(j[0]["baseline"], base);

  o = run({"quality", std::to_string(slower)});
  EXPECT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("quality: samples 50, spread"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("against baseline run " + std::to_string(base) + ": 1.100x"),
            std::string::npos)
      << o.out;
  expectBadInput({"quality", "999"}, "no run 999");

  o = run({"baseline", "--clear", std::to_string(base)});
  EXPECT_EQ(o.code, kExitOk) << o.err;
  EXPECT_EQ(run({"history", "--regressions"}).code, kExitOk);
  expectBadInput({"baseline", "--clear", std::to_string(base)}, "is no baseline");
  expectBadInput({"baseline", "--clear"}, "--clear needs a run");
}

}  // namespace
}  // namespace kwb
