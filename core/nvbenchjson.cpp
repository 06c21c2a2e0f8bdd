#include "core/nvbenchjson.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "core/error.h"
#include "core/stats.h"
#include "core/version.h"

namespace kwb {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;
namespace fs = std::filesystem;

// --- writing ---

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

bool isInteger(const std::string& text) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

ordered_json namedValue(const std::string& name, const std::string& type, std::string value) {
  return {{"name", name}, {"type", type}, {"value", std::move(value)}};
}

ordered_json summary(const std::string& tag, const std::string& name, const std::string& hint,
                     const std::string& description, ordered_json data) {
  return {{"tag", tag},
          {"name", name},
          {"description", description},
          {"hint", hint},
          {"data", std::move(data)}};
}

ordered_json floatSummary(const std::string& tag, const std::string& name, const std::string& hint,
                          const std::string& description, double value) {
  return summary(tag, name, hint, description,
                 ordered_json::array({namedValue("value", "float64", number(value))}));
}

void writeSamples(const fs::path& file, const std::vector<double>& samples) {
  fs::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary);
  for (double sample : samples) {
    const auto value = static_cast<float>(sample);
    unsigned char bytes[4];
    std::memcpy(bytes, &value, 4);
    if constexpr (std::endian::native == std::endian::big) std::reverse(bytes, bytes + 4);
    out.write(reinterpret_cast<const char*>(bytes), 4);
  }
  if (!out) throw Error(ErrorKind::Database, "could not write " + file.string());
}

ordered_json deviceJson(int id, const DeviceInfo& d) {
  const int sm = d.ccMajor * 100 + d.ccMinor * 10;
  return {{"id", id},
          {"name", d.name},
          {"uuid", d.uuid},
          {"sm_version", sm},
          {"ptx_version", sm},
          {"number_of_sms", d.smCount},
          {"max_threads_per_sm", d.maxThreadsPerSm},
          {"max_threads_per_block", d.maxThreadsPerBlock},
          {"global_memory_size", d.totalMemBytes},
          {"global_memory_bus_peak_clock_rate", d.memClockKhz * 1000},
          {"global_memory_bus_width", d.memBusBits},
          {"global_memory_bus_bandwidth", d.peakBandwidth},
          {"l2_cache_size", d.l2Bytes}};
}

std::string benchmarkName(const RunResult& r) {
  return r.code ? r.code->file : r.family + "/" + r.variant;
}

ordered_json stateSummaries(const RunResult& r, const std::string& sampleFile) {
  const std::string p = r.mode == TimingMode::Cold ? "nv/cold" : "nv/batch";
  const std::string events = " (CUDA events, less the events' own time)";
  ordered_json out = ordered_json::array();
  out.push_back(
      summary(p + "/sample_size", "Samples", "sample_size", "Number of timed kernel executions",
              ordered_json::array({namedValue("value", "int64", std::to_string(r.stats.count))})));
  out.push_back(floatSummary(p + "/time/gpu/mean", "GPU Time", "duration",
                             "Mean kernel execution time" + events, r.stats.mean));
  out.push_back(floatSummary(p + "/time/gpu/min", "Min GPU Time", "duration",
                             "Fastest kernel execution" + events, r.stats.min));
  out.push_back(floatSummary(p + "/time/gpu/max", "Max GPU Time", "duration",
                             "Slowest kernel execution" + events, r.stats.max));
  out.push_back(floatSummary(p + "/time/gpu/median", "Median GPU Time", "duration",
                             "Median kernel execution time" + events, r.stats.median));
  out.push_back(floatSummary(p + "/time/gpu/stdev/absolute", "Noise", "duration",
                             "Standard deviation of the GPU times", r.stats.stddev));
  out.push_back(floatSummary(p + "/time/gpu/stdev/relative", "Noise", "percentage",
                             "Relative standard deviation of the GPU times", r.stats.relStddev()));
  if (r.bytes > 0 && r.stats.mean > 0) {
    // Over the mean, as nvbench computes it; kwb's own bandwidth is over the median.
    const double bandwidth = static_cast<double>(r.bytes) / r.stats.mean;
    out.push_back(floatSummary(p + "/bw/global/bytes_per_second", "GlobalMem BW", "byte_rate",
                               "Bytes read and written per second over the mean time", bandwidth));
    if (r.peakBandwidth > 0)
      out.push_back(floatSummary(p + "/bw/global/utilization", "BWUtil", "percentage",
                                 "Global memory bandwidth over the device's peak",
                                 bandwidth / r.peakBandwidth));
  }
  ordered_json timing = summary(
      "kwb/timing", "Timing", "", "How Kernel Workbench timed the run",
      ordered_json::array({namedValue("l2_flush", "string", std::string(toString(r.flush))),
                           namedValue("event_overhead", "float64", number(r.eventOverhead)),
                           namedValue("started_at", "int64", std::to_string(r.startedAt))}));
  timing["hide"] = "Kernel Workbench's own";
  out.push_back(std::move(timing));
  if (!sampleFile.empty()) {
    ordered_json file = summary(
        "nv/json/bin:" + p + "/sample_times", "Samples Times File", "file/sample_times",
        "Binary file containing sample times as little-endian float32.",
        ordered_json::array({namedValue("filename", "string", sampleFile),
                             namedValue("size", "int64", std::to_string(r.samples.size()))}));
    file["hide"] = "Not needed in table.";
    out.push_back(std::move(file));
  }
  return out;
}

// --- reading ---

// kwb's steadiness target: an imported run that meets it counts as converged.
constexpr double kConvergedSpread = 0.005;

struct Place {
  const std::string& file;
  std::string where;
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(ErrorKind::Usage, file + ": " + where + what + "; nothing was imported");
  }
};

// The summaries of a state by tag, each as its values by name, whichever version wrote them.
using Values = std::map<std::string, json, std::less<>>;
std::map<std::string, Values, std::less<>> summariesOf(const json& state, const Place& place) {
  std::map<std::string, Values, std::less<>> out;
  const auto values = [&](const json& list) {
    Values v;
    if (!list.is_array()) place.fail("a summary's values are not a list");
    for (const auto& item : list) {
      if (!item.is_object() || !item.contains("name") || !item["name"].is_string())
        place.fail("a summary value has no name");
      v[item["name"].get<std::string>()] = item.value("value", json());
    }
    return v;
  };
  const auto summaries = state.find("summaries");
  if (summaries == state.end()) return out;
  if (summaries->is_array()) {
    for (const auto& s : *summaries) {
      if (!s.is_object() || !s.contains("tag") || !s["tag"].is_string())
        place.fail("a summary has no tag");
      Values v = s.contains("data") ? values(s["data"]) : Values{};
      if (s.contains("values")) v.merge(values(s["values"]));
      out[s["tag"].get<std::string>()] = std::move(v);
    }
  } else if (summaries->is_object()) {
    for (const auto& [tag, s] : summaries->items())
      out[tag] = s.is_object() && s.contains("values") ? values(s["values"]) : Values{};
  } else {
    place.fail("\"summaries\" is neither a list nor an object");
  }
  return out;
}

// A value nvbench wrote as a number or, from version 1, as the number's text.
std::optional<double> numberOf(const json& value) {
  if (value.is_number()) return value.get<double>();
  if (!value.is_string()) return std::nullopt;
  const std::string text = value.get<std::string>();
  char* end = nullptr;
  const double parsed = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0') return std::nullopt;
  return parsed;
}

std::string textOf(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_integer()) return std::to_string(value.get<std::int64_t>());
  return value.dump();
}

std::vector<double> readSamples(const fs::path& jsonPath, const std::string& name, std::size_t size,
                                const Place& place) {
  std::vector<fs::path> candidates{
      fs::path(name), jsonPath.parent_path() / name,
      fs::path(jsonPath.string() + "-bin") / fs::path(name).filename()};
  for (const auto& path : candidates) {
    std::error_code error;
    if (!fs::is_regular_file(path, error)) continue;
    if (fs::file_size(path, error) < size * 4)
      place.fail("its sample file " + path.string() + " holds fewer than the " +
                 std::to_string(size) + " samples it names (cut short?)");
    std::ifstream in(path, std::ios::binary);
    std::vector<double> samples(size);
    for (double& sample : samples) {
      unsigned char bytes[4];
      in.read(reinterpret_cast<char*>(bytes), 4);
      if constexpr (std::endian::native == std::endian::big) std::reverse(bytes, bytes + 4);
      float value = 0;
      std::memcpy(&value, bytes, 4);
      sample = value;
    }
    return samples;
  }
  return {};  // nvbench's own advice: a missing sidecar means no samples, not an empty run
}

DeviceInfo deviceOf(const json& d, const Place& place) {
  if (!d.is_object() || !d.contains("name") || !d["name"].is_string())
    place.fail("a device has no name");
  DeviceInfo info;
  info.ordinal = d.value("id", 0);
  info.name = d["name"].get<std::string>();
  const int sm = d.value("sm_version", 0);
  info.ccMajor = sm / 100;
  info.ccMinor = sm % 100 / 10;
  info.smCount = d.value("number_of_sms", 0);
  info.maxThreadsPerSm = d.value("max_threads_per_sm", 0);
  info.maxThreadsPerBlock = d.value("max_threads_per_block", 0);
  info.totalMemBytes = d.value("global_memory_size", std::uint64_t{0});
  info.memBusBits = d.value("global_memory_bus_width", 0);
  info.memClockKhz = d.value("global_memory_bus_peak_clock_rate", std::int64_t{0}) / 1000;
  info.peakBandwidth = d.value("global_memory_bus_bandwidth", 0.0);
  info.l2Bytes = d.value("l2_cache_size", std::int64_t{0});
  // nvbench names no UUID: one made of what identifies the model and its place in the machine.
  info.uuid = d.value("uuid", std::string());
  if (info.uuid.empty())
    info.uuid = "nvbench:" + info.name + ":sm" + std::to_string(sm) + ":" +
                std::to_string(info.smCount) + "sms:" + std::to_string(info.ordinal);
  return info;
}

// What every state of a file shares.
struct FileContext {
  const std::string& path;
  std::string nvbenchVersion;
  const std::vector<DeviceInfo>& devices;
};

// The run of one state nvbench measured; none for a state without GPU times.
std::optional<RunResult> runOfState(const json& state, const std::string& benchmark,
                                    const FileContext& file, const Place& place) {
  const auto summaries = summariesOf(state, place);
  const std::string p = summaries.contains("nv/cold/time/gpu/mean") ? "nv/cold" : "nv/batch";
  const auto value = [&](const std::string& tag,
                         const char* field = "value") -> std::optional<double> {
    auto it = summaries.find(p + tag);
    if (it == summaries.end()) return std::nullopt;
    auto v = it->second.find(field);
    if (v == it->second.end()) return std::nullopt;
    const auto parsed = numberOf(v->second);
    if (!parsed) place.fail("summary " + p + tag + " has no number");
    return parsed;
  };
  const auto mean = value("/time/gpu/mean");
  if (!mean) return std::nullopt;  // a CPU-only benchmark, or one without GPU times

  RunResult r;
  r.family = kImportedFamily;
  r.variant = benchmark;
  r.mode = p == "nv/cold" ? TimingMode::Cold : TimingMode::Hot;
  r.flush = legacyFlush(r.mode);
  r.appVersion = file.nvbenchVersion;
  for (const auto& item : state.value("axis_values", json::array())) {
    if (!item.is_object() || !item.contains("name")) place.fail("an axis value has no name");
    r.problem.set(textOf(item["name"]), textOf(item.value("value", json(""))));
  }
  const int device = state.value("device", 0);
  for (const auto& d : file.devices)
    if (d.ordinal == device) {
      r.deviceUuid = d.uuid;
      r.peakBandwidth = d.peakBandwidth;
    }

  std::string notice = "imported from " + file.path;
  if (auto sidecar = summaries.find("nv/json/bin:" + p + "/sample_times");
      sidecar != summaries.end()) {
    const auto fileName = sidecar->second.find("filename");
    const auto size = sidecar->second.find("size");
    if (fileName != sidecar->second.end() && size != sidecar->second.end()) {
      const auto count = numberOf(size->second);
      if (!count || *count < 0) place.fail("its sample file's size is no count");
      r.samples =
          readSamples(file.path, textOf(fileName->second), static_cast<std::size_t>(*count), place);
      if (r.samples.empty()) notice += "; its sample file is missing";
    }
  }
  // The summaries in full precision; what they lack, from the float32 samples.
  const bool sampled = r.samples.size() >= 2;
  const Summary fromSamples = sampled ? summarize(r.samples) : Summary{};
  const auto median = value("/time/gpu/median");
  const auto absolute = value("/time/gpu/stdev/absolute");
  const auto relative = value("/time/gpu/stdev/relative");
  r.stats.mean = *mean;
  r.stats.count = static_cast<std::size_t>(
      value("/sample_size").value_or(static_cast<double>(r.samples.size())));
  r.stats.median = median ? *median : sampled ? fromSamples.median : *mean;
  r.stats.min = value("/time/gpu/min").value_or(sampled ? fromSamples.min : r.stats.median);
  r.stats.max = value("/time/gpu/max").value_or(sampled ? fromSamples.max : r.stats.median);
  r.stats.stddev = absolute ? *absolute : relative ? *relative * *mean : fromSamples.stddev;
  if (!median && !sampled) notice += "; the file gives nvbench's mean, not a median, as the time";
  r.converged = r.stats.relStddev() < kConvergedSpread;
  if (const auto bandwidth = value("/bw/global/bytes_per_second")) {
    r.bytes = static_cast<std::uint64_t>(std::llround(*bandwidth * *mean));
    r.bandwidth = r.stats.median > 0 ? static_cast<double>(r.bytes) / r.stats.median : 0;
  }
  if (auto timing = summaries.find("kwb/timing"); timing != summaries.end()) {
    const auto& v = timing->second;
    if (auto f = v.find("l2_flush"); f != v.end())
      r.flush = parseL2Flush(textOf(f->second)).value_or(r.flush);
    if (auto o = v.find("event_overhead"); o != v.end())
      r.eventOverhead = numberOf(o->second).value_or(0);
    if (auto t = v.find("started_at"); t != v.end())
      r.startedAt = static_cast<std::int64_t>(numberOf(t->second).value_or(0));
  }
  r.notice = notice;
  return r;
}

}  // namespace

ordered_json toNvbenchJson(const std::vector<RunRecord>& records,
                           const std::vector<DeviceInfo>& devices, const std::string& samplesFor) {
  ordered_json root;
  root["meta"] = {{"argv", {"kwb", "export", "--format", "nvbench"}},
                  {"version",
                   {{"json", {{"major", 1}, {"minor", 0}, {"patch", 0}, {"string", "1.0.0"}}},
                    {"kwb", {{"string", kAppVersion}}}}}};

  std::vector<std::string> uuids;  // device ids in order of first use
  const auto deviceId = [&](const RunResult& r) {
    auto it = std::find(uuids.begin(), uuids.end(), r.deviceUuid);
    if (it != uuids.end()) return static_cast<int>(it - uuids.begin());
    uuids.push_back(r.deviceUuid);
    return static_cast<int>(uuids.size() - 1);
  };
  std::vector<std::string> names;
  std::map<std::string, std::vector<const RunRecord*>> byBenchmark;
  for (const auto& record : records) {
    deviceId(record.result);
    const std::string name = benchmarkName(record.result);
    if (!byBenchmark.contains(name)) names.push_back(name);
    byBenchmark[name].push_back(&record);
  }
  ordered_json deviceList = ordered_json::array();
  for (std::size_t i = 0; i < uuids.size(); ++i) {
    auto known = std::find_if(devices.begin(), devices.end(),
                              [&](const DeviceInfo& d) { return d.uuid == uuids[i]; });
    DeviceInfo d = known != devices.end() ? *known : DeviceInfo{};
    if (known == devices.end()) d.uuid = uuids[i];
    for (const auto& record : records)
      if (d.name.empty() && record.result.deviceUuid == uuids[i]) d.name = record.deviceName;
    deviceList.push_back(deviceJson(static_cast<int>(i), d));
  }
  root["devices"] = std::move(deviceList);

  std::size_t sampleFiles = 0;
  ordered_json benchmarks = ordered_json::array();
  for (const auto& name : names) {
    const auto& runs = byBenchmark[name];
    ordered_json bench;
    bench["name"] = name;
    bench["index"] = benchmarks.size();
    ordered_json ids = ordered_json::array();
    // The axes: every parameter of the benchmark's runs with the values it took, in order.
    std::vector<std::string> axisNames;
    std::map<std::string, std::vector<std::string>> axisValues;
    for (const RunRecord* record : runs) {
      const int id = deviceId(record->result);
      if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
      for (const ParamSet* params : {&record->result.problem, &record->result.launch})
        for (const auto& [key, value] : params->values()) {
          auto& values = axisValues[key];
          if (values.empty()) axisNames.push_back(key);
          if (std::find(values.begin(), values.end(), value) == values.end())
            values.push_back(value);
        }
    }
    bench["devices"] = std::move(ids);
    ordered_json axes = ordered_json::array();
    std::map<std::string, bool> integerAxis;
    for (const auto& axisName : axisNames) {
      const auto& values = axisValues[axisName];
      const bool integer = std::all_of(values.begin(), values.end(), isInteger);
      integerAxis[axisName] = integer;
      ordered_json list = ordered_json::array();
      for (const auto& v : values) {
        ordered_json value{{"input_string", v}, {"description", ""}};
        if (integer)
          value["value"] = std::stoll(v);
        else
          value["value"] = v;
        list.push_back(std::move(value));
      }
      axes.push_back({{"name", axisName},
                      {"type", integer ? "int64" : "string"},
                      {"flags", ""},
                      {"values", std::move(list)}});
    }
    bench["axes"] = std::move(axes);

    ordered_json states = ordered_json::array();
    for (const RunRecord* record : runs) {
      const RunResult& r = record->result;
      const int id = deviceId(r);
      ordered_json state;
      std::string stateName = "Device=" + std::to_string(id);
      ordered_json axisValuesJson = ordered_json::array();
      for (const ParamSet* params : {&r.problem, &r.launch})
        for (const auto& [key, value] : params->values()) {
          stateName += " " + key + "=" + value;
          axisValuesJson.push_back(namedValue(key, integerAxis[key] ? "int64" : "string", value));
        }
      state["name"] = stateName;
      state["device"] = id;
      state["type_config_index"] = 0;
      state["axis_values"] = std::move(axisValuesJson);
      const bool timed = r.status == RunStatus::Ok && r.stats.count > 0;
      std::string sampleFile;
      if (timed && !samplesFor.empty() && !r.samples.empty()) {
        const fs::path file =
            fs::path(samplesFor + "-bin") / (std::to_string(sampleFiles++) + ".bin");
        writeSamples(file, r.samples);
        sampleFile = file.string();
      }
      state["summaries"] = timed ? stateSummaries(r, sampleFile) : ordered_json::array();
      state["is_skipped"] = !timed;
      if (!timed)
        state["skip_reason"] = r.error.empty() ? "run " + std::string(toString(r.status)) : r.error;
      states.push_back(std::move(state));
    }
    bench["states"] = std::move(states);
    benchmarks.push_back(std::move(bench));
  }
  root["benchmarks"] = std::move(benchmarks);
  return root;
}

NvbenchImport readNvbenchJson(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorKind::Usage, "cannot read '" + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  json root;
  try {
    root = json::parse(text.str());
  } catch (const json::parse_error& e) {
    throw Error(ErrorKind::Usage, path + " is not JSON, or is cut short (at byte " +
                                      std::to_string(e.byte) + "); nothing was imported");
  }
  Place place{path, ""};
  if (!root.is_object() || !root.contains("benchmarks") || !root["benchmarks"].is_array())
    place.fail("not nvbench JSON: it has no \"benchmarks\" list");

  NvbenchImport out;
  out.version = "0";
  if (const auto v = root.value("/meta/version/json/string"_json_pointer, json()); v.is_string())
    out.version = v.get<std::string>();
  if (out.version != "0" && !out.version.starts_with("1."))
    place.fail("its JSON version " + out.version + " is newer than the 1.x this kwb reads");
  FileContext file{path, "nvbench", out.devices};
  if (const auto v = root.value("/meta/version/nvbench/string"_json_pointer, json()); v.is_string())
    file.nvbenchVersion += " " + v.get<std::string>();
  for (const auto& d : root.value("devices", json::array()))
    out.devices.push_back(deviceOf(d, place));

  const auto& benchmarks = root["benchmarks"];
  for (std::size_t b = 0; b < benchmarks.size(); ++b) {
    const json& bench = benchmarks[b];
    if (!bench.is_object() || !bench.contains("name") || !bench["name"].is_string())
      place.fail("benchmark " + std::to_string(b) + " has no name");
    const std::string name = bench["name"].get<std::string>();
    const json states = bench.value("states", json::array());
    if (!states.is_array()) place.fail("benchmark \"" + name + "\" has no list of states");
    for (std::size_t s = 0; s < states.size(); ++s) {
      const json& state = states[s];
      place.where = "benchmark \"" + name + "\", state " + std::to_string(s) + ": ";
      if (!state.is_object()) place.fail("not an object");
      if (state.value("is_skipped", false)) {
        ++out.skipped;
        continue;
      }
      if (auto run = runOfState(state, name, file, place))
        out.runs.push_back(std::move(*run));
      else
        ++out.skipped;
    }
  }
  return out;
}

}  // namespace kwb
