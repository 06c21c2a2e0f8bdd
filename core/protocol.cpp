#include "core/protocol.h"

#include <algorithm>
#include <array>
#include <span>

#include <nlohmann/json.hpp>

#include "core/format.h"
#include "core/jsoncodec.h"

namespace kwb::protocol {

using nlohmann::json;

namespace {

// Indexed by Type.
constexpr std::array<std::string_view, 17> kTypeNames{
    "hello",    "list",     "devices", "resolve", "resolved", "run",  "sweep", "sass",     "cancel",
    "shutdown", "progress", "result",  "done",    "error",    "tune", "tuned", "evaluated"};

std::optional<Type> parseType(std::string_view name) {
  const auto it = std::find(kTypeNames.begin(), kTypeNames.end(), name);
  if (it == kTypeNames.end()) return std::nullopt;
  return static_cast<Type>(it - kTypeNames.begin());
}

constexpr std::string_view kTuneNames =
    "axes, restrictions, strategy, objective, budget, patience, confirm, search_seed, rerun";

constexpr std::string_view kOptionNames =
    "mode, budget_s, min_samples, max_samples, target_rsd, seed, verify_only, metrics, tags, "
    "hang_after_s, copy_ceiling";

// The fields of one JSON object, read by type; a missing or mistyped field throws a DecodeError
// that names it with its path ("options.budget_s").
class Fields {
 public:
  Fields(const json& object, std::string path, std::string id)
      : object_(object), path_(std::move(path)), id_(std::move(id)) {}

  const json* find(std::string_view key) const {
    const auto it = object_.find(key);
    return it == object_.end() ? nullptr : &*it;
  }
  std::string path(std::string_view key) const {
    return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
  }
  [[noreturn]] void fail(std::string_view key, const std::string& what) const {
    throw DecodeError(path(key), "field \"" + path(key) + "\" " + what, id_);
  }
  const json& required(std::string_view key) const {
    const json* value = find(key);
    if (!value) fail(key, "is missing");
    return *value;
  }

  std::string string(std::string_view key, std::optional<std::string> fallback = {}) const {
    const json* value = find(key);
    if (!value && fallback) return *fallback;
    if (!value || !value->is_string()) fail(key, value ? "must be a string" : "is missing");
    return value->get<std::string>();
  }
  template <typename T>
  T number(std::string_view key, std::optional<T> fallback = {}) const {
    const json* value = find(key);
    if (!value && fallback) return *fallback;
    if (!value) fail(key, "is missing");
    if constexpr (std::is_floating_point_v<T>) {
      if (!value->is_number()) fail(key, "must be a number");
    } else if constexpr (std::is_unsigned_v<T>) {
      if (!value->is_number_unsigned()) fail(key, "must be a whole number, 0 or more");
    } else {
      if (!value->is_number_integer()) fail(key, "must be a whole number");
    }
    return value->get<T>();
  }
  bool boolean(std::string_view key, std::optional<bool> fallback = {}) const {
    const json* value = find(key);
    if (!value && fallback) return *fallback;
    if (!value || !value->is_boolean()) fail(key, value ? "must be true or false" : "is missing");
    return value->get<bool>();
  }
  Fields object(std::string_view key) const {
    const json& value = required(key);
    if (!value.is_object()) fail(key, "must be an object");
    return Fields(value, path(key), id_);
  }
  const json& array(std::string_view key) const {
    const json& value = required(key);
    if (!value.is_array()) fail(key, "must be an array");
    return value;
  }
  std::vector<std::string> strings(std::string_view key) const {
    std::vector<std::string> out;
    for (const auto& item : array(key)) {
      if (!item.is_string()) fail(key, "must be an array of strings");
      out.push_back(item.get<std::string>());
    }
    return out;
  }
  // A value read by one of the codec's fromJson functions.
  template <typename F>
  auto parsed(std::string_view key, F fromJson) const {
    try {
      return fromJson(required(key));
    } catch (const json::exception& e) {
      fail(key, std::string("cannot be read: ") + e.what());
    }
  }
  template <typename F>
  auto items(std::string_view key, F fromJson) const {
    std::vector<decltype(fromJson(json()))> out;
    for (const auto& item : array(key)) {
      try {
        out.push_back(fromJson(item));
      } catch (const json::exception& e) {
        fail(key, std::string("holds an item that cannot be read: ") + e.what());
      }
    }
    return out;
  }
  const json& raw() const { return object_; }

 private:
  const json& object_;
  std::string path_;
  std::string id_;
};

// --- encoding ---

json envelope(Type type, const std::string& id) {
  json out{{"v", kVersion}, {"type", toString(type)}};
  if (!id.empty()) out["id"] = id;
  return out;
}

void put(json& out, const Kernel& k) {
  out["family"] = k.family;
  out["variant"] = k.variant;
  out["params"] = json::object();
  for (const auto& [name, value] : k.params) out["params"][name] = value;
  if (k.isFile()) out["file"] = {{"path", k.path}, {"source", k.source}};
}

// Every option is written, so that the worker never falls back on a default of its own.
json options(const MeasureSettings& s) {
  json o;
  o["mode"] = s.mode;
  o["budget_s"] = s.budget;
  o["min_samples"] = s.minSamples;
  o["max_samples"] = s.maxSamples;
  o["target_rsd"] = s.targetRsd;
  o["seed"] = s.seed;
  o["hang_after_s"] = s.hangSeconds;
  o["verify_only"] = s.verifyOnly;
  o["metrics"] = s.metrics;
  o["tags"] = s.tags;
  // Only where the client knows it: a worker of an older build refuses options it does not know.
  if (s.copyCeiling) o["copy_ceiling"] = toJson(*s.copyCeiling);
  return o;
}

struct RequestEncoder {
  json& out;
  void operator()(const ListRequest&) const {}
  void operator()(const DevicesRequest&) const {}
  void operator()(const ShutdownRequest&) const {}
  void operator()(const ResolveRequest& r) const { put(out, r.kernel); }
  void operator()(const SassRequest& r) const { put(out, r.kernel); }
  void operator()(const RunRequest& r) const {
    put(out, r.kernel);
    out["options"] = options(r.options);
  }
  void operator()(const SweepRequest& r) const {
    put(out, r.kernel);
    out["axes"] = r.axes;
    out["options"] = options(r.options);
  }
  void operator()(const TuneRequest& r) const {
    put(out, r.kernel);
    out["tune"] = {{"axes", r.tune.axes},           {"restrictions", r.tune.restrictions},
                   {"strategy", r.tune.strategy},   {"objective", r.tune.objective},
                   {"budget", r.tune.searchBudget}, {"patience", r.tune.patience},
                   {"confirm", r.tune.confirm},     {"search_seed", r.tune.searchSeed},
                   {"rerun", r.tune.rerun}};
    out["options"] = options(r.options);
  }
  void operator()(const CancelRequest& r) const { out["target"] = r.target; }
};

struct ReplyEncoder {
  json& out;
  void operator()(const Hello& h) const {
    out["app_version"] = h.appVersion;
    out["protocol"] = h.protocol;
    out["options"] = h.options;
  }
  void operator()(const Catalog& c) const {
    out["families"] = json::array();
    for (const auto& f : c.families) out["families"].push_back(toJson(f));
  }
  void operator()(const DeviceList& d) const {
    out["devices"] = json::array();
    for (const auto& device : d.devices) out["devices"].push_back(toJson(device));
  }
  void operator()(const Resolved& r) const {
    out["params"] = toJson(r.params);
    out["derived"] = r.derived ? toJson(*r.derived) : json();
    out["bytes"] = r.derived ? json(r.bytes) : json();
    out["device"] = r.derived ? json(r.device) : json();
    if (!r.derived) out["no_device"] = r.noDevice;
  }
  void operator()(const SassListing& s) const { out["report"] = toJson(s.report); }
  void operator()(const Progress& p) const {
    out["done"] = p.done;
    out["total"] = p.total;
    out["eta_s"] = p.etaSeconds;
    out["text"] = p.text;
  }
  void operator()(const Result& r) const {
    out["index"] = r.index;
    out["run"] = toJson(r.run);
    out["run_id"] = r.runId ? json(*r.runId) : json(nullptr);
  }
  void operator()(const Done& d) const {
    out["completed"] = d.completed;
    out["cancelled"] = d.cancelled;
  }
  void operator()(const Tuned& t) const { out["report"] = t.report; }
  void operator()(const Evaluated& e) const {
    out["number"] = e.number;
    out["evaluation"] = e.evaluation;
  }
  void operator()(const Failure& f) const {
    out["code"] = toString(f.kind);
    out["message"] = f.message;
    if (!f.param.empty()) out["param"] = f.param;
  }
};

// One line of JSON. Text that is not valid UTF-8 (an error message quoting a bad line, say) is
// written with U+FFFD in place of the bad bytes: sending a reply must never fail.
std::string line(const json& message) {
  return message.dump(-1, ' ', false, json::error_handler_t::replace) + '\n';
}

// --- decoding ---

struct Envelope {
  json message;
  Type type;
  std::string id;
};

// The types of each side, in the order of its body's alternatives.
constexpr Type kRequestTypes[] = {Type::Run,     Type::Sweep,    Type::Sass,
                                  Type::Resolve, Type::Devices,  Type::List,
                                  Type::Cancel,  Type::Shutdown, Type::Tune};
static_assert(std::size(kRequestTypes) == std::variant_size_v<RequestBody>);
constexpr Type kReplyTypes[] = {Type::Hello, Type::List,     Type::Devices,  Type::Resolved,
                                Type::Sass,  Type::Progress, Type::Result,   Type::Done,
                                Type::Error, Type::Tuned,    Type::Evaluated};
static_assert(std::size(kReplyTypes) == std::variant_size_v<ReplyBody>);

// The words of a comma-separated list.
std::vector<std::string> splitList(std::string_view list) {
  std::vector<std::string> out;
  for (std::size_t start = 0; start <= list.size();) {
    const std::size_t end = std::min(list.find(',', start), list.size());
    out.emplace_back(list.substr(start, end - start));
    start = end + 2;  // past ", "
  }
  return out;
}

// Whether name is one of the comma-separated words of list.
bool listed(std::string_view list, std::string_view name) {
  const std::vector<std::string> words = splitList(list);
  return std::ranges::find(words, name) != words.end();
}

// The object, its version and its type; the id first, so that later errors can carry it. side
// is "request" or "reply", allowed the types of that side.
Envelope open(std::string_view line, std::string_view side, std::span<const Type> allowed) {
  json parsed = json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object())
    throw DecodeError("", "not a JSON object: " + printable(line.substr(0, 120)));
  Envelope e{std::move(parsed), Type::Hello, ""};
  if (const auto id = e.message.find("id"); id != e.message.end()) {
    if (!id->is_string()) throw DecodeError("id", "field \"id\" must be a string");
    e.id = id->get<std::string>();
  }
  const auto version = e.message.find("v");
  if (version == e.message.end() || !version->is_number_integer())
    throw DecodeError("v", "message has no protocol version \"v\"", e.id);
  if (version->get<int>() != kVersion)
    throw DecodeError("v",
                      "protocol version " + version->dump() +
                          " is not supported; this side speaks " + std::to_string(kVersion),
                      e.id, version->get<int>());
  const auto type = e.message.find("type");
  if (type == e.message.end() || !type->is_string())
    throw DecodeError("type", "message has no string \"type\"", e.id);
  const std::string name = type->get<std::string>();
  const auto known = parseType(name);
  if (!known || std::find(allowed.begin(), allowed.end(), *known) == allowed.end()) {
    std::string names;
    for (const Type t : allowed) names += (names.empty() ? "" : ", ") + std::string(toString(t));
    throw DecodeError(
        "type", "unknown " + std::string(side) + " type '" + name + "'; allowed: " + names, e.id);
  }
  e.type = *known;
  return e;
}

Kernel kernelOf(const Fields& f) {
  Kernel k{f.string("family"), f.string("variant"), {}};
  if (f.find("file")) {
    const Fields file = f.object("file");
    k.path = file.string("path");
    k.source = file.string("source");
    if (k.source.empty()) file.fail("source", "must hold the kernel file's text");
  }
  if (!f.find("params")) return k;
  const Fields params = f.object("params");
  for (const auto& [name, value] : params.raw().items()) {
    if (value.is_string())
      k.params[name] = value.get<std::string>();
    else if (value.is_number())
      k.params[name] = value.dump();
    else
      params.fail(name, "must be a string or a number");
  }
  return k;
}

TuneSettings tuneSettingsOf(const Fields& request) {
  TuneSettings t;
  const Fields f = request.object("tune");
  for (const auto& [name, value] : f.raw().items())
    if (!listed(kTuneNames, name))
      f.fail(name, "is not a tuning setting; allowed: " + std::string(kTuneNames));
  t.axes = f.strings("axes");
  if (f.find("restrictions")) t.restrictions = f.strings("restrictions");
  t.strategy = f.string("strategy", t.strategy);
  t.objective = f.string("objective", t.objective);
  t.searchBudget = f.string("budget", t.searchBudget);
  t.patience = f.number<std::size_t>("patience", t.patience);
  t.confirm = f.number<std::size_t>("confirm", t.confirm);
  t.searchSeed = f.number<std::uint64_t>("search_seed", t.searchSeed);
  t.rerun = f.boolean("rerun", t.rerun);
  return t;
}

MeasureSettings settingsOf(const Fields& request) {
  MeasureSettings s;
  if (!request.find("options")) return s;
  const Fields o = request.object("options");
  for (const auto& [name, value] : o.raw().items())
    if (!listed(kOptionNames, name))
      o.fail(name, "is not an option; allowed: " + std::string(kOptionNames));
  s.mode = o.string("mode", s.mode);
  s.budget = o.number<double>("budget_s", s.budget);
  s.minSamples = o.number<std::size_t>("min_samples", s.minSamples);
  s.maxSamples = o.number<std::size_t>("max_samples", s.maxSamples);
  s.targetRsd = o.number<double>("target_rsd", s.targetRsd);
  s.seed = o.number<std::uint64_t>("seed", s.seed);
  s.hangSeconds = o.number<double>("hang_after_s", s.hangSeconds);
  s.verifyOnly = o.boolean("verify_only", s.verifyOnly);
  s.metrics = o.string("metrics", s.metrics);
  if (o.find("tags")) s.tags = o.strings("tags");
  if (o.find("copy_ceiling")) {
    const Fields c = o.object("copy_ceiling");
    s.copyCeiling = CopyCeiling{c.number<double>("bandwidth"), c.number<std::uint64_t>("bytes"),
                                c.string("method"), c.number<std::int64_t>("measured_at")};
    if (!(s.copyCeiling->bandwidth > 0)) c.fail("bandwidth", "must be above 0");
  }
  return s;
}

}  // namespace

Kernel kernelOf(const RunResult& run) {
  Kernel kernel{run.family, run.variant, {}};
  if (run.code) {
    kernel.path = run.code->file;
    kernel.source = run.code->source;
  }
  for (const ParamSet* set : {&run.problem, &run.launch})
    for (const auto& [name, value] : set->values()) kernel.params[name] = value;
  return kernel;
}

std::string_view toString(Type type) {
  return kTypeNames[static_cast<std::size_t>(type)];
}

Failure Failure::of(const kwb::Error& error) {
  return {error.kind(), error.what(), error.param()};
}

Type Request::type() const {
  return kRequestTypes[body.index()];
}

bool Request::isJob() const {
  return std::holds_alternative<RunRequest>(body) || std::holds_alternative<SweepRequest>(body) ||
         std::holds_alternative<TuneRequest>(body) || std::holds_alternative<SassRequest>(body);
}

const Kernel* Request::kernel() const {
  if (const auto* r = std::get_if<ResolveRequest>(&body)) return &r->kernel;
  if (const auto* r = std::get_if<SassRequest>(&body)) return &r->kernel;
  if (const auto* r = std::get_if<RunRequest>(&body)) return &r->kernel;
  if (const auto* r = std::get_if<SweepRequest>(&body)) return &r->kernel;
  if (const auto* r = std::get_if<TuneRequest>(&body)) return &r->kernel;
  return nullptr;
}

const MeasureSettings* Request::options() const {
  if (const auto* r = std::get_if<RunRequest>(&body)) return &r->options;
  if (const auto* r = std::get_if<SweepRequest>(&body)) return &r->options;
  if (const auto* r = std::get_if<TuneRequest>(&body)) return &r->options;
  return nullptr;
}

Type Reply::type() const {
  return kReplyTypes[body.index()];
}

std::vector<std::string> optionNames() {
  return splitList(kOptionNames);
}

std::string encode(const Request& request) {
  json out = envelope(request.type(), request.id);
  std::visit(RequestEncoder{out}, request.body);
  return line(out);
}

std::string encode(const Reply& reply) {
  json out = envelope(reply.type(), reply.id);
  std::visit(ReplyEncoder{out}, reply.body);
  return line(out);
}

Request decodeRequest(std::string_view line) {
  const Envelope e = open(line, "request", kRequestTypes);
  const Fields f(e.message, "", e.id);
  Request r{e.id, ListRequest{}};
  switch (e.type) {
    case Type::List: break;
    case Type::Devices: r.body = DevicesRequest{}; break;
    case Type::Shutdown: r.body = ShutdownRequest{}; break;
    case Type::Resolve: r.body = ResolveRequest{kernelOf(f)}; break;
    case Type::Sass: r.body = SassRequest{kernelOf(f)}; break;
    case Type::Run: r.body = RunRequest{kernelOf(f), settingsOf(f)}; break;
    case Type::Sweep:
      r.body =
          SweepRequest{kernelOf(f), f.find("axes") ? f.strings("axes") : std::vector<std::string>{},
                       settingsOf(f)};
      break;
    case Type::Tune: r.body = TuneRequest{kernelOf(f), tuneSettingsOf(f), settingsOf(f)}; break;
    default: r.body = CancelRequest{f.string("target")}; break;
  }
  return r;
}

Reply decodeReply(std::string_view line) {
  const Envelope e = open(line, "reply", kReplyTypes);
  const Fields f(e.message, "", e.id);
  Reply r{e.id, Done{}};
  switch (e.type) {
    case Type::Hello:
      r.body = Hello{f.string("app_version"), f.number<int>("protocol"),
                     f.find("options") ? f.strings("options") : std::vector<std::string>{}};
      break;
    case Type::List: r.body = Catalog{f.items("families", familyInfoFromJson)}; break;
    case Type::Devices: r.body = DeviceList{f.items("devices", deviceInfoFromJson)}; break;
    case Type::Resolved: {
      Resolved out{f.parsed("params", paramSetFromJson), std::nullopt, 0, "", ""};
      if (!f.required("derived").is_null()) {
        out.derived = f.parsed("derived", paramSetFromJson);
        out.bytes = f.number<std::uint64_t>("bytes");
        out.device = f.string("device");
      } else {
        out.noDevice = f.string("no_device");
      }
      r.body = std::move(out);
      break;
    }
    case Type::Sass: r.body = SassListing{f.parsed("report", sassReportFromJson)}; break;
    case Type::Progress:
      r.body = Progress{f.number<std::size_t>("done"), f.number<std::size_t>("total"),
                        f.number<double>("eta_s"), f.string("text")};
      break;
    case Type::Result: {
      Result out{f.number<std::size_t>("index"), f.parsed("run", runResultFromJson), std::nullopt};
      if (!f.required("run_id").is_null()) out.runId = f.number<std::int64_t>("run_id");
      r.body = std::move(out);
      break;
    }
    case Type::Done:
      r.body = Done{f.number<std::size_t>("completed"), f.boolean("cancelled")};
      break;
    case Type::Evaluated: {
      const json& evaluation = f.required("evaluation");
      if (!evaluation.is_object()) f.fail("evaluation", "must be an object");
      r.body = Evaluated{f.number<std::size_t>("number"), evaluation};
      break;
    }
    case Type::Tuned: {
      const json& report = f.required("report");
      if (!report.is_object()) f.fail("report", "must be an object");
      r.body = Tuned{report};
      break;
    }
    default: {
      const std::string code = f.string("code");
      const auto kind = parseErrorKind(code);
      if (!kind) f.fail("code", "'" + code + "' is not an error code");
      r.body = Failure{*kind, f.string("message"), f.string("param", std::string())};
      break;
    }
  }
  return r;
}

}  // namespace kwb::protocol
