// nvbench JSON written as its printer defines it, read back (this version and the older one),
// refused when malformed; Kernel Tuner's T4 results.
#include <gtest/gtest.h>

#include <fstream>

#include "core/error.h"
#include "core/nvbenchjson.h"
#include "core/t4json.h"
#include "db/nvbenchimport.h"
#include "db/runstore.h"
#include "db/testdb.h"

namespace kwb {
namespace {

using nlohmann::json;
using testing::TempDir;

std::vector<RunRecord> twoDevicesAndAFailure() {
  std::vector<RunRecord> records(3);
  records[0].result = testing::fakeRun("vectorized", "f32", 1000, "GPU-aaaa");
  records[0].result.samples = {20e-6, 21e-6, 19e-6, 20.5e-6};
  records[0].result.stats = summarize(records[0].result.samples);
  records[0].result.bandwidth =
      static_cast<double>(records[0].result.bytes) / records[0].result.stats.median;
  records[0].result.eventOverhead = 1.25e-6;
  records[0].deviceName = "NVIDIA H100 80GB HBM3";
  records[1].result = testing::fakeRun("vectorized", "f32", 2000, "GPU-bbbb");
  records[1].result.problem.set("n", "2097152");
  records[1].result.mode = TimingMode::Hot;
  records[1].result.flush = L2Flush::None;
  records[1].deviceName = "NVIDIA H200";
  records[2].result = testing::fakeRun("vectorized", "f32", 3000, "GPU-aaaa");
  records[2].result.status = RunStatus::Failed;
  records[2].result.error = "an illegal memory access";
  records[2].result.samples.clear();
  records[2].result.stats = {};
  records[2].deviceName = "NVIDIA H100 80GB HBM3";
  for (std::size_t i = 0; i < records.size(); ++i) records[i].id = static_cast<std::int64_t>(i + 1);
  return records;
}

std::vector<DeviceInfo> devices() {
  return {testing::fakeDevice("GPU-aaaa", "NVIDIA H100 80GB HBM3"),
          testing::fakeDevice("GPU-bbbb", "NVIDIA H200")};
}

void write(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

TEST(NvbenchJson, WrittenAsItsPrinterDefinesIt) {
  const json doc = json::parse(toNvbenchJson(twoDevicesAndAFailure(), devices()).dump());
  EXPECT_EQ(doc["meta"]["version"]["json"]["string"], "1.0.0");
  ASSERT_EQ(doc["devices"].size(), 2u);
  EXPECT_EQ(doc["devices"][1]["id"], 1);
  EXPECT_EQ(doc["devices"][1]["name"], "NVIDIA H200");
  EXPECT_EQ(doc["devices"][0]["sm_version"], 900);
  ASSERT_EQ(doc["benchmarks"].size(), 1u);
  const json& bench = doc["benchmarks"][0];
  EXPECT_EQ(bench["name"], "copy/vectorized");
  EXPECT_EQ(bench["index"], 0);
  EXPECT_EQ(bench["devices"], json::array({0, 1}));
  ASSERT_TRUE(bench["axes"].is_array());
  const json& n = bench["axes"][1];  // the problem's dtype and n, then the launch's block_size
  EXPECT_EQ(n["name"], "n");
  EXPECT_EQ(n["type"], "int64");
  EXPECT_EQ(n["values"][1]["value"], 2097152);
  EXPECT_EQ(n["values"][1]["input_string"], "2097152");
  ASSERT_EQ(bench["states"].size(), 3u);
  const json& cold = bench["states"][0];
  EXPECT_EQ(cold["name"], "Device=0 dtype=f32 n=1048576 block_size=256");
  EXPECT_EQ(cold["device"], 0);
  EXPECT_EQ(cold["is_skipped"], false);
  const json mean =
      *std::find_if(cold["summaries"].begin(), cold["summaries"].end(),
                    [](const json& s) { return s["tag"] == "nv/cold/time/gpu/mean"; });
  EXPECT_EQ(mean["hint"], "duration");
  ASSERT_EQ(mean["data"][0]["name"], "value");
  EXPECT_EQ(mean["data"][0]["type"], "float64");
  EXPECT_NEAR(std::stod(mean["data"][0]["value"].get<std::string>()), 20.125e-6, 1e-15);
  EXPECT_EQ(bench["states"][1]["summaries"][0]["tag"], "nv/batch/sample_size");
  EXPECT_EQ(bench["states"][2]["is_skipped"], true);
  EXPECT_EQ(bench["states"][2]["skip_reason"], "an illegal memory access");
}

// Export with sample files, import: the same runs, statistics and samples (float32 on disk).
TEST(NvbenchJson, RoundTripsRunsStatisticsAndSamples) {
  TempDir dir;
  const std::string path = dir.file("out.json");
  const auto records = twoDevicesAndAFailure();
  write(path, toNvbenchJson(records, devices(), path).dump(2));
  const NvbenchImport back = readNvbenchJson(path);
  EXPECT_EQ(back.version, "1.0.0");
  EXPECT_EQ(back.skipped, 1u);
  ASSERT_EQ(back.devices.size(), 2u);
  EXPECT_EQ(back.devices[1].uuid, "GPU-bbbb");
  EXPECT_EQ(back.devices[1].smCount, 132);
  ASSERT_EQ(back.runs.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const RunResult& a = records[i].result;
    const RunResult& b = back.runs[i];
    EXPECT_EQ(b.family, "imported");
    EXPECT_EQ(b.variant, "copy/vectorized");
    EXPECT_EQ(b.problem.get("n"), a.problem.get("n"));
    EXPECT_EQ(b.problem.get("block_size"), a.launch.get("block_size"));
    EXPECT_EQ(b.deviceUuid, a.deviceUuid);
    EXPECT_EQ(b.mode, a.mode);
    EXPECT_EQ(b.flush, a.flush);
    EXPECT_DOUBLE_EQ(b.eventOverhead, a.eventOverhead);
    EXPECT_EQ(b.startedAt, a.startedAt);
    EXPECT_EQ(b.stats.count, a.stats.count);
    EXPECT_DOUBLE_EQ(b.stats.median, a.stats.median);
    EXPECT_DOUBLE_EQ(b.stats.mean, a.stats.mean);
    EXPECT_DOUBLE_EQ(b.stats.min, a.stats.min);
    EXPECT_DOUBLE_EQ(b.stats.max, a.stats.max);
    EXPECT_DOUBLE_EQ(b.stats.stddev, a.stats.stddev);
    EXPECT_EQ(b.bytes, a.bytes);
    EXPECT_NEAR(b.bandwidth / a.bandwidth, 1, 1e-12);
    ASSERT_EQ(b.samples.size(), a.samples.size());
    for (std::size_t k = 0; k < a.samples.size(); ++k)
      EXPECT_NEAR(b.samples[k], a.samples[k], a.samples[k] * 1e-7);
  }
}

// nvbench's JSON before it was versioned: summaries keyed by tag with numeric "values", axes
// keyed by name, results from two devices.
TEST(NvbenchJson, ReadsTheOlderFormatFromSeveralDevices) {
  TempDir dir;
  const std::string path = dir.file("old.json");
  write(path, R"({"devices": [{"id": 0, "name": "NVIDIA A100", "sm_version": 800,
    "number_of_sms": 108, "global_memory_bus_bandwidth": 1.555e12},
    {"id": 1, "name": "NVIDIA A100", "sm_version": 800, "number_of_sms": 108}],
  "benchmarks": [{"index": 0, "name": "reduce", "axes": {"Elements": {"type": "int64",
      "flags": "pow2", "values": [{"input_string": "20", "value": 1048576}]}},
    "states": [
      {"index": 0, "description": "Device=0 Elements=2^20", "device": 0,
       "axis_values": [{"name": "Elements", "type": "int64", "value": 1048576}],
       "summaries": {"nv/cold/sample_size": {"values": [{"name": "value", "type": "int64", "value": 900}]},
         "nv/cold/time/gpu/mean": {"values": [{"name": "value", "type": "float64", "value": 1.5e-05}]},
         "nv/cold/time/gpu/stdev/relative": {"values": [{"name": "value", "type": "float64", "value": 0.02}]},
         "nv/cold/bw/global/bytes_per_second": {"values": [{"name": "value", "type": "float64", "value": 2.8e11}]}},
       "is_skipped": false},
      {"index": 1, "description": "Device=1 Elements=2^20", "device": 1,
       "axis_values": [{"name": "Elements", "type": "int64", "value": 1048576}],
       "summaries": {"nv/cold/time/gpu/mean": {"values": [{"name": "value", "type": "float64", "value": 1.6e-05}]}},
       "is_skipped": false},
      {"index": 2, "description": "Device=0 Elements=2^30", "device": 0, "axis_values": [],
       "summaries": {}, "is_skipped": true, "skip_reason": "too big"}]}]})");
  const NvbenchImport file = readNvbenchJson(path);
  EXPECT_EQ(file.version, "0");
  EXPECT_EQ(file.skipped, 1u);
  ASSERT_EQ(file.devices.size(), 2u);
  EXPECT_NE(file.devices[0].uuid, file.devices[1].uuid) << "two GPUs of one model stay two";
  ASSERT_EQ(file.runs.size(), 2u);
  EXPECT_EQ(file.runs[0].problem.get("Elements"), "1048576");
  EXPECT_EQ(file.runs[0].stats.count, 900u);
  EXPECT_DOUBLE_EQ(file.runs[0].stats.median, 1.5e-5);
  EXPECT_DOUBLE_EQ(file.runs[0].stats.stddev, 0.02 * 1.5e-5);
  EXPECT_EQ(file.runs[0].bytes, 4'200'000u);
  EXPECT_EQ(file.runs[0].flush, L2Flush::Write);
  EXPECT_NE(file.runs[0].notice.find("mean, not a median"), std::string::npos);
  EXPECT_EQ(file.runs[1].deviceUuid, file.devices[1].uuid);
}

TEST(NvbenchJson, MalformedAndTruncatedFilesAreRefusedWithASentence) {
  TempDir dir;
  const std::string good = dir.file("good.json");
  write(good, toNvbenchJson(twoDevicesAndAFailure(), devices(), good).dump(2));
  std::string text;
  {
    std::ifstream in(good);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  const auto refused = [&](const std::string& name, const std::string& content,
                           const std::string& says) {
    const std::string path = dir.file(name);
    if (!content.empty()) write(path, content);
    try {
      readNvbenchJson(path);
      ADD_FAILURE() << name << " was read";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  refused("cut.json", text.substr(0, text.size() / 2), "is not JSON, or is cut short");
  refused("other.json", R"({"runs": []})", "has no \"benchmarks\" list");
  std::string badNumber = text;
  const auto at = badNumber.find("\"value\": \"", badNumber.find("nv/cold/time/gpu/mean"));
  badNumber.replace(at, 10, "\"value\": \"x");
  refused("number.json", badNumber, "has no number");
  refused("newer.json", R"({"meta": {"version": {"json": {"string": "2.0.0"}}}, "benchmarks": []})",
          "newer than the 1.x");
  std::filesystem::resize_file(good + "-bin/0.bin", 6);
  refused("good.json", "", "fewer than the 4 samples");
}

// A file that cannot be read stores nothing; importing one twice adds its runs once.
TEST(NvbenchImport, AllOrNothingAndOnce) {
  TempDir dir;
  const std::string path = dir.file("out.json");
  write(path, toNvbenchJson(twoDevicesAndAFailure(), devices()).dump());
  RunStore store(dir.file("h.sqlite"));
  ImportOutcome first = importNvbench(store, path);
  EXPECT_EQ(first.runs, 2u);
  EXPECT_EQ(first.devices, 2u);
  EXPECT_EQ(importNvbench(store, path).duplicates, 2u);
  EXPECT_EQ(store.count({}), 2u);
  EXPECT_EQ(store.devices().size(), 2u);
  write(dir.file("bad.json"), "{\"benchmarks\": [");
  EXPECT_THROW(importNvbench(store, dir.file("bad.json")), Error);
  EXPECT_EQ(store.count({}), 2u);
}

TEST(T4Json, OneResultPerRunInKernelTunersUnits) {
  const json doc = json::parse(toT4Json(twoDevicesAndAFailure()).dump());
  EXPECT_EQ(doc["schema_version"], "1.0.0");
  ASSERT_EQ(doc["results"].size(), 3u);
  const json& ok = doc["results"][0];
  for (const char* key : {"timestamp", "configuration", "times", "invalidity", "correctness"})
    EXPECT_TRUE(ok.contains(key)) << key;
  EXPECT_EQ(ok["timestamp"], "1970-01-01T00:00:01Z");
  EXPECT_EQ(ok["configuration"]["n"], 1048576);
  EXPECT_EQ(ok["configuration"]["dtype"], "f32");
  EXPECT_EQ(ok["invalidity"], "correct");
  EXPECT_EQ(ok["correctness"], 1);
  EXPECT_EQ(ok["objectives"], json::array({"time"}));
  ASSERT_EQ(ok["times"]["runtimes"].size(), 4u);
  EXPECT_NEAR(ok["times"]["runtimes"][0].get<double>(), 0.020, 1e-12);
  EXPECT_EQ(ok["measurements"][0]["name"], "time");
  EXPECT_EQ(ok["measurements"][0]["unit"], "ms");
  EXPECT_NEAR(ok["measurements"][0]["value"].get<double>(), 0.02025, 1e-12);
  EXPECT_EQ(doc["results"][2]["invalidity"], "runtime");
  EXPECT_EQ(doc["results"][2]["correctness"], 0);
  EXPECT_TRUE(doc["results"][2]["measurements"].empty());
}

}  // namespace
}  // namespace kwb
