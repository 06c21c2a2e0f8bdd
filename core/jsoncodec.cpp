#include "core/jsoncodec.h"

#include <limits>

#include "core/error.h"

namespace kwb {

using nlohmann::json;

json toJson(const ParamSet& params) {
  json out = json::object();
  for (const auto& [name, value] : params.values()) out[name] = value;
  return out;
}

ParamSet paramSetFromJson(const json& in) {
  ParamSet params;
  for (const auto& [name, value] : in.items())
    params.set(name, value.is_string() ? value.get<std::string>() : value.dump());
  return params;
}

json toJson(const ParamSpec& spec) {
  json out{{"name", spec.name},
           {"kind", toString(spec.kind)},
           {"role", toString(spec.role)},
           {"default", spec.defaultValue},
           {"unit", spec.unit},
           {"meaning", spec.meaning},
           {"allowed", spec.allowedText()},
           {"allows_auto", spec.allowsAuto}};
  if (spec.kind == ParamKind::Choice) {
    out["choices"] = spec.choices;
  } else {
    out["min"] = spec.min;
    out["max"] = spec.max;
    if (spec.kind == ParamKind::Integer) out["multiple_of"] = spec.multipleOf;
    if (spec.kind == ParamKind::List) out["max_length"] = spec.maxLength;
  }
  return out;
}

ParamSpec paramSpecFromJson(const json& in) {
  ParamSpec spec;
  spec.name = in.at("name").get<std::string>();
  const std::string kind = in.at("kind").get<std::string>();
  spec.kind = kind == "integer" ? ParamKind::Integer
              : kind == "list"  ? ParamKind::List
                                : ParamKind::Choice;
  spec.role = in.at("role") == "problem" ? ParamRole::Problem : ParamRole::Launch;
  spec.defaultValue = in.value("default", "");
  spec.unit = in.value("unit", "");
  spec.meaning = in.value("meaning", "");
  spec.allowsAuto = in.value("allows_auto", false);
  if (spec.kind == ParamKind::Choice) {
    spec.choices = in.at("choices").get<std::vector<std::string>>();
  } else {
    spec.min = in.at("min").get<std::int64_t>();
    spec.max = in.at("max").get<std::int64_t>();
    spec.multipleOf = in.value("multiple_of", std::int64_t{1});
    spec.maxLength = in.value("max_length", std::size_t{0});
  }
  return spec;
}

json toJson(const VariantInfo& variant) {
  json params = json::array();
  for (const auto& spec : variant.params) params.push_back(toJson(spec));
  return {{"family", variant.family},   {"name", variant.name}, {"summary", variant.summary},
          {"teaches", variant.teaches}, {"params", params},     {"size_param", variant.sizeParam}};
}

VariantInfo variantInfoFromJson(const json& in) {
  VariantInfo variant;
  variant.family = in.at("family").get<std::string>();
  variant.name = in.at("name").get<std::string>();
  variant.summary = in.value("summary", "");
  variant.teaches = in.value("teaches", "");
  variant.sizeParam = in.value("size_param", "");
  for (const auto& spec : in.at("params")) variant.params.push_back(paramSpecFromJson(spec));
  return variant;
}

json toJson(const FamilyInfo& family) {
  json variants = json::array();
  for (const auto& variant : family.variants) variants.push_back(toJson(variant));
  return {{"name", family.name}, {"summary", family.summary}, {"variants", variants}};
}

FamilyInfo familyInfoFromJson(const json& in) {
  FamilyInfo family;
  family.name = in.at("name").get<std::string>();
  family.summary = in.value("summary", "");
  for (const auto& variant : in.at("variants"))
    family.variants.push_back(variantInfoFromJson(variant));
  return family;
}

json toJson(const DeviceInfo& d) {
  return {{"ordinal", d.ordinal},
          {"name", d.name},
          {"uuid", d.uuid},
          {"compute_capability", d.computeCapability()},
          {"cc_major", d.ccMajor},
          {"cc_minor", d.ccMinor},
          {"sm_count", d.smCount},
          {"max_threads_per_sm", d.maxThreadsPerSm},
          {"max_threads_per_block", d.maxThreadsPerBlock},
          {"l2_bytes", d.l2Bytes},
          {"mem_bus_bits", d.memBusBits},
          {"mem_clock_khz", d.memClockKhz},
          {"total_mem_bytes", d.totalMemBytes},
          {"peak_bandwidth", d.peakBandwidth},
          {"driver_version", d.driverVersion},
          {"runtime_version", d.runtimeVersion}};
}

DeviceInfo deviceInfoFromJson(const json& in) {
  DeviceInfo d;
  d.ordinal = in.value("ordinal", 0);
  d.name = in.at("name").get<std::string>();
  d.uuid = in.at("uuid").get<std::string>();
  d.ccMajor = in.value("cc_major", 0);
  d.ccMinor = in.value("cc_minor", 0);
  d.smCount = in.value("sm_count", 0);
  d.maxThreadsPerSm = in.value("max_threads_per_sm", 0);
  d.maxThreadsPerBlock = in.value("max_threads_per_block", 0);
  d.l2Bytes = in.value("l2_bytes", std::int64_t{0});
  d.memBusBits = in.value("mem_bus_bits", 0);
  d.memClockKhz = in.value("mem_clock_khz", std::int64_t{0});
  d.totalMemBytes = in.value("total_mem_bytes", std::uint64_t{0});
  d.peakBandwidth = in.value("peak_bandwidth", 0.0);
  d.driverVersion = in.value("driver_version", 0);
  d.runtimeVersion = in.value("runtime_version", 0);
  return d;
}

json toJson(const CopyCeiling& c) {
  return {{"bandwidth", c.bandwidth},
          {"bytes", c.bytes},
          {"method", c.method},
          {"measured_at", c.measuredAt}};
}

json toJson(const Summary& s) {
  return {{"count", s.count}, {"min", s.min},       {"max", s.max},
          {"mean", s.mean},   {"median", s.median}, {"stddev", s.stddev}};
}

Summary summaryFromJson(const json& in) {
  Summary s;
  s.count = in.value("count", std::size_t{0});
  s.min = in.value("min", 0.0);
  s.max = in.value("max", 0.0);
  s.mean = in.value("mean", 0.0);
  s.median = in.value("median", 0.0);
  s.stddev = in.value("stddev", 0.0);
  return s;
}

json toJson(const RunResult& r, bool withSamples) {
  json metrics = json::array();
  for (const auto& m : r.metrics) {
    json metric{{"name", m.name}, {"value", m.value}, {"unit", m.unit}};
    if (!m.kernel.empty()) metric["kernel"] = m.kernel;
    metrics.push_back(std::move(metric));
  }
  json out{{"family", r.family},
           {"variant", r.variant},
           {"problem", toJson(r.problem)},
           {"launch", toJson(r.launch)},
           {"derived", toJson(r.derived)},
           {"mode", toString(r.mode)},
           {"status", toString(r.status)},
           {"error", r.error},
           {"verification",
            {{"checked", r.verification.checked},
             {"passed", r.verification.passed},
             {"rel_error", r.verification.relError},
             {"tolerance", r.verification.tolerance}}},
           {"time_s", toJson(r.stats)},
           {"timer", "event"},
           {"l2_flush", toString(r.flush)},
           {"event_overhead_s", r.eventOverhead},
           {"converged", r.converged},
           {"bytes", r.bytes},
           {"flops", r.flops ? nlohmann::json(*r.flops) : nlohmann::json(nullptr)},
           {"bandwidth", r.bandwidth},
           {"ceiling_bandwidth", r.ceilingBandwidth},
           {"ceiling_fraction", r.ceilingFraction()},
           {"peak_bandwidth", r.peakBandwidth},
           {"peak_fraction", r.peakFraction()},
           {"device_uuid", r.deviceUuid},
           {"app_version", r.appVersion},
           {"started_at", r.startedAt},
           {"metrics", metrics}};
  if (!r.notice.empty()) out["notice"] = r.notice;
  if (!r.throttledSamples.empty()) out["throttled_samples"] = r.throttledSamples;
  if (r.code)
    out["code"] = {{"file", r.code->file},
                   {"sha256", r.code->hash},
                   {"source", r.code->source},
                   {"spec", r.code->spec}};
  if (withSamples) out["samples_s"] = r.samples;
  return out;
}

RunResult runResultFromJson(const json& in) {
  RunResult r;
  r.family = in.at("family").get<std::string>();
  r.variant = in.at("variant").get<std::string>();
  r.problem = paramSetFromJson(in.value("problem", json::object()));
  r.launch = paramSetFromJson(in.value("launch", json::object()));
  r.derived = paramSetFromJson(in.value("derived", json::object()));
  r.mode = parseTimingMode(in.value("mode", "cold")).value_or(TimingMode::Cold);
  r.status = parseRunStatus(in.value("status", "failed")).value_or(RunStatus::Failed);
  r.error = in.value("error", "");
  if (auto v = in.find("verification"); v != in.end()) {
    r.verification.checked = v->value("checked", false);
    r.verification.passed = v->value("passed", false);
    // JSON has no infinity: a non-finite error (NaN in the output) travels as null.
    const auto relError = v->find("rel_error");
    r.verification.relError = relError == v->end() || relError->is_null()
                                  ? std::numeric_limits<double>::infinity()
                                  : relError->get<double>();
    r.verification.tolerance = v->value("tolerance", 0.0);
  }
  if (auto t = in.find("time_s"); t != in.end()) r.stats = summaryFromJson(*t);
  r.flush = parseL2Flush(in.value("l2_flush", "")).value_or(legacyFlush(r.mode));
  r.eventOverhead = in.value("event_overhead_s", 0.0);
  r.converged = in.value("converged", false);
  r.bytes = in.value("bytes", std::uint64_t{0});
  if (const auto f = in.find("flops"); f != in.end() && f->is_number()) r.flops = f->get<double>();
  r.bandwidth = in.value("bandwidth", 0.0);
  r.ceilingBandwidth = in.value("ceiling_bandwidth", 0.0);
  r.peakBandwidth = in.value("peak_bandwidth", 0.0);
  r.deviceUuid = in.value("device_uuid", "");
  r.appVersion = in.value("app_version", "");
  r.startedAt = in.value("started_at", std::int64_t{0});
  if (auto s = in.find("samples_s"); s != in.end()) r.samples = s->get<std::vector<double>>();
  for (const auto& m : in.value("metrics", json::array()))
    r.metrics.push_back({m.at("name").get<std::string>(), m.at("value").get<double>(),
                         m.value("unit", ""), m.value("kernel", "")});
  r.notice = in.value("notice", "");
  r.throttledSamples = in.value("throttled_samples", std::vector<std::size_t>{});
  if (auto c = in.find("code"); c != in.end())
    r.code = KernelCode{c->at("file").get<std::string>(), c->at("sha256").get<std::string>(),
                        c->at("source").get<std::string>(), c->value("spec", "")};
  return r;
}

json toJson(const SassReport& report) {
  json kernels = json::array();
  for (const auto& k : report.kernels)
    kernels.push_back({{"symbol", k.symbol}, {"name", k.name}, {"listing", k.listing}});
  json out{{"family", report.family}, {"variant", report.variant}, {"arch", report.arch},
           {"binary", report.binary}, {"kernels", kernels},        {"cached", report.cached}};
  if (!report.notice.empty()) out["notice"] = report.notice;
  return out;
}

SassReport sassReportFromJson(const json& j) {
  SassReport report;
  report.family = j.value("family", "");
  report.variant = j.value("variant", "");
  report.arch = j.value("arch", "");
  report.binary = j.value("binary", "");
  report.cached = j.value("cached", false);
  report.notice = j.value("notice", "");
  for (const auto& k : j.value("kernels", json::array()))
    report.kernels.push_back({k.value("symbol", ""), k.value("name", ""), k.value("listing", "")});
  return report;
}

}  // namespace kwb
