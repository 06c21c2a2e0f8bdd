#include "core/validation.h"

#include <algorithm>

#include "core/error.h"
#include "core/valueparse.h"

namespace kwb {

namespace {

// "[64, 512, 512]", "(0,2,1)", "64x512x512" -> "64,512,512", each item checked.
std::string canonicalList(const ParamSpec& spec, const std::string& raw) {
  std::string text;
  for (char c : raw)
    if (c != ' ' && c != '[' && c != ']' && c != '(' && c != ')') text += c == 'x' ? ',' : c;
  std::string canonical;
  std::size_t count = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    start = comma + 1;
    const auto value = parseInteger(item);
    if (!value)
      throw paramError(spec.name, "'" + raw + "' has '" + item +
                                      "', not an integer; allowed: " + spec.allowedText());
    if (*value < spec.min || *value > spec.max)
      throw paramError(spec.name, "'" + raw + "' has " + item +
                                      ", out of range; allowed: " + spec.allowedText());
    canonical += (canonical.empty() ? "" : ",") + std::to_string(*value);
    ++count;
  }
  if (count > spec.maxLength)
    throw paramError(spec.name, "'" + raw + "' has " + std::to_string(count) +
                                    " items; allowed: " + spec.allowedText());
  return canonical;
}

}  // namespace

std::string canonicalValue(const ParamSpec& spec, const std::string& raw) {
  if (spec.allowsAuto && raw == "auto") return raw;
  if (spec.kind == ParamKind::List) return canonicalList(spec, raw);
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

RawParams rawParamsOf(const std::vector<std::string>& items) {
  RawParams raw;
  for (const auto& item : items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw Error(ErrorKind::Usage,
                  std::string("parameter '").append(item).append("' must look like name=value"));
    const std::string name = item.substr(0, eq);
    if (raw.count(name)) throw paramError(name, "is given twice");
    raw[name] = item.substr(eq + 1);
  }
  return raw;
}

}  // namespace kwb
