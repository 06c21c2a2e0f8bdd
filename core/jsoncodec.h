#pragma once

#include <nlohmann/json.hpp>

#include "core/deviceinfo.h"
#include "core/error.h"
#include "core/paramset.h"
#include "core/runresult.h"
#include "core/sass.h"
#include "core/variantinfo.h"

namespace kwb {

// JSON forms shared by `--json` output, the worker protocol and export. Field names are
// snake_case and stable: docs/protocol.md lists them.
nlohmann::json toJson(const ParamSet& params);
ParamSet paramSetFromJson(const nlohmann::json& json);

nlohmann::json toJson(const ParamSpec& spec);
ParamSpec paramSpecFromJson(const nlohmann::json& json);
nlohmann::json toJson(const VariantInfo& variant);
VariantInfo variantInfoFromJson(const nlohmann::json& json);
nlohmann::json toJson(const FamilyInfo& family);
FamilyInfo familyInfoFromJson(const nlohmann::json& json);

nlohmann::json toJson(const DeviceInfo& device);
DeviceInfo deviceInfoFromJson(const nlohmann::json& json);
nlohmann::json toJson(const CopyCeiling& ceiling);

nlohmann::json toJson(const Summary& summary);
Summary summaryFromJson(const nlohmann::json& json);

nlohmann::json toJson(const RunResult& result, bool withSamples = true);
RunResult runResultFromJson(const nlohmann::json& json);

nlohmann::json toJson(const SassReport& report);
SassReport sassReportFromJson(const nlohmann::json& json);

}  // namespace kwb
