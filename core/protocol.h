#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/deviceinfo.h"
#include "core/error.h"
#include "core/runresult.h"
#include "core/sass.h"
#include "core/variantinfo.h"

namespace kwb::protocol {

// The worker protocol: one JSON object per line, both ways, each with "v" and "type".
// docs/protocol.md is its reference; bump the version on any incompatible change.
inline constexpr int kVersion = 1;

struct Message {
  std::string type;
  std::string id;  // the request a message belongs to; empty for "hello"
  nlohmann::json body;
};

// Parses and checks one line: valid JSON object, "v" equal to kVersion, a string "type".
// Throws Error(Usage) saying what is wrong.
Message decode(std::string_view line);
std::string encode(const nlohmann::json& message);  // one line, '\n' included

// Requests (client to worker).
nlohmann::json listRequest(const std::string& id);
nlohmann::json devicesRequest(const std::string& id);
nlohmann::json cancelRequest(const std::string& id, const std::string& target);
nlohmann::json resolveRequest(const std::string& id, const std::string& family,
                              const std::string& variant, const nlohmann::json& params);
nlohmann::json sassRequest(const std::string& id, const std::string& family,
                           const std::string& variant, const nlohmann::json& params);
nlohmann::json shutdownRequest(const std::string& id);

// Replies (worker to client).
nlohmann::json hello(const std::string& appVersion);
nlohmann::json progress(const std::string& id, std::size_t done, std::size_t total,
                        double etaSeconds, const std::string& text);
nlohmann::json result(const std::string& id, std::size_t index, const RunResult& result,
                      std::optional<std::int64_t> runId);
nlohmann::json error(const std::string& id, const Error& error);
nlohmann::json done(const std::string& id, std::size_t completed, bool cancelled);
nlohmann::json devices(const std::string& id, const std::vector<DeviceInfo>& devices);
nlohmann::json list(const std::string& id, const std::vector<FamilyInfo>& families);
// The parameters with defaults applied and, on a device, what the variant derives from them and
// the bytes it moves; without derived values, noDevice says why.
nlohmann::json resolved(const std::string& id, const ParamSet& params,
                        const std::optional<ParamSet>& derived, std::uint64_t bytes,
                        const std::string& device, const std::string& noDevice);
nlohmann::json sass(const std::string& id, const SassReport& report);

}  // namespace kwb::protocol
