#include "core/protocol.h"

#include "core/jsoncodec.h"

namespace kwb::protocol {

using nlohmann::json;

namespace {
json envelope(std::string_view type, const std::string& id) {
  json out{{"v", kVersion}, {"type", type}};
  if (!id.empty()) out["id"] = id;
  return out;
}
}  // namespace

Message decode(std::string_view line) {
  json parsed = json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object())
    throw Error(ErrorKind::Usage, "not a JSON object: " + std::string(line.substr(0, 120)));
  auto version = parsed.find("v");
  if (version == parsed.end() || !version->is_number_integer())
    throw Error(ErrorKind::Usage, "message has no protocol version \"v\"");
  if (version->get<int>() != kVersion)
    throw Error(ErrorKind::Usage, "protocol version " + version->dump() +
                                      " is not supported; this side speaks " +
                                      std::to_string(kVersion));
  auto type = parsed.find("type");
  if (type == parsed.end() || !type->is_string())
    throw Error(ErrorKind::Usage, "message has no string \"type\"");
  Message message;
  message.type = type->get<std::string>();
  auto id = parsed.find("id");
  if (id != parsed.end()) {
    if (!id->is_string()) throw Error(ErrorKind::Usage, "message \"id\" must be a string");
    message.id = id->get<std::string>();
  }
  message.body = std::move(parsed);
  return message;
}

std::string encode(const json& message) {
  return message.dump() + '\n';
}

json listRequest(const std::string& id) {
  return envelope("list", id);
}
json devicesRequest(const std::string& id) {
  return envelope("devices", id);
}
json shutdownRequest(const std::string& id) {
  return envelope("shutdown", id);
}

json cancelRequest(const std::string& id, const std::string& target) {
  json out = envelope("cancel", id);
  out["target"] = target;
  return out;
}

json resolveRequest(const std::string& id, const std::string& family, const std::string& variant,
                    const json& params) {
  json out = envelope("resolve", id);
  out["family"] = family;
  out["variant"] = variant;
  out["params"] = params;
  return out;
}

json sassRequest(const std::string& id, const std::string& family, const std::string& variant,
                 const json& params) {
  json out = resolveRequest(id, family, variant, params);
  out["type"] = "sass";
  return out;
}

json sass(const std::string& id, const SassReport& report) {
  json out = envelope("sass", id);
  out["report"] = toJson(report);
  return out;
}

json resolved(const std::string& id, const ParamSet& params, const std::optional<ParamSet>& derived,
              std::uint64_t bytes, const std::string& device, const std::string& noDevice) {
  json out = envelope("resolved", id);
  out["params"] = toJson(params);
  out["derived"] = derived ? toJson(*derived) : json();
  out["bytes"] = derived ? json(bytes) : json();
  out["device"] = derived ? json(device) : json();
  if (!derived) out["no_device"] = noDevice;
  return out;
}

json hello(const std::string& appVersion) {
  json out = envelope("hello", "");
  out["app_version"] = appVersion;
  out["protocol"] = kVersion;
  return out;
}

json progress(const std::string& id, std::size_t done, std::size_t total, double etaSeconds,
              const std::string& text) {
  json out = envelope("progress", id);
  out["done"] = done;
  out["total"] = total;
  out["eta_s"] = etaSeconds;
  out["text"] = text;
  return out;
}

json result(const std::string& id, std::size_t index, const RunResult& run,
            std::optional<std::int64_t> runId) {
  json out = envelope("result", id);
  out["index"] = index;
  out["run"] = toJson(run);
  out["run_id"] = runId ? json(*runId) : json(nullptr);
  return out;
}

json error(const std::string& id, const Error& err) {
  json out = envelope("error", id);
  out.update(toJson(err));
  return out;
}

json done(const std::string& id, std::size_t completed, bool cancelled) {
  json out = envelope("done", id);
  out["completed"] = completed;
  out["cancelled"] = cancelled;
  return out;
}

json devices(const std::string& id, const std::vector<DeviceInfo>& list) {
  json out = envelope("devices", id);
  out["devices"] = json::array();
  for (const auto& d : list) out["devices"].push_back(toJson(d));
  return out;
}

json list(const std::string& id, const std::vector<FamilyInfo>& families) {
  json out = envelope("list", id);
  out["families"] = json::array();
  for (const auto& f : families) out["families"].push_back(toJson(f));
  return out;
}

}  // namespace kwb::protocol
