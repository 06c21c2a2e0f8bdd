#include "core/validation.h"

#include <algorithm>

#include "core/error.h"
#include "core/valueparse.h"

namespace kwb {

std::string canonicalValue(const ParamSpec& spec, const std::string& raw) {
  if (spec.allowsAuto && raw == "auto") return raw;
  if (spec.kind == ParamKind::Choice) {
    if (std::find(spec.choices.begin(), spec.choices.end(), raw) != spec.choices.end()) return raw;
    throw paramError(spec.name, "'" + raw + "' is not allowed; allowed: " + spec.allowedText());
  }
  auto value = parseInteger(raw);
  if (!value)
    throw paramError(spec.name, "'" + raw + "' is not an integer; allowed: " + spec.allowedText());
  if (*value < spec.min || *value > spec.max)
    throw paramError(spec.name, raw + " is out of range; allowed: " + spec.allowedText());
  if (*value % spec.multipleOf != 0)
    throw paramError(spec.name, raw + " is not a multiple of " + std::to_string(spec.multipleOf) +
                                    "; allowed: " + spec.allowedText());
  return std::to_string(*value);
}

const ParamSpec* findSpec(const std::vector<ParamSpec>& specs, std::string_view name) {
  auto it = std::find_if(specs.begin(), specs.end(),
                         [&](const ParamSpec& spec) { return spec.name == name; });
  return it == specs.end() ? nullptr : &*it;
}

std::string joinNames(const std::vector<ParamSpec>& specs) {
  std::string text;
  for (const auto& spec : specs) text += (text.empty() ? "" : ", ") + spec.name;
  return text.empty() ? "none" : text;
}

ParamSet resolveParams(const std::vector<ParamSpec>& specs, const RawParams& given) {
  for (const auto& [name, value] : given) {
    if (!findSpec(specs, name))
      throw paramError(name, "unknown parameter; this variant takes: " + joinNames(specs));
  }
  ParamSet resolved;
  for (const auto& spec : specs) {
    auto it = given.find(spec.name);
    resolved.set(spec.name,
                 canonicalValue(spec, it != given.end() ? it->second : spec.defaultValue));
  }
  return resolved;
}

}  // namespace kwb
