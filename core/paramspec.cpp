#include "core/paramspec.h"

#include <algorithm>

#include "core/valueparse.h"

namespace kwb {

std::string ParamSpec::allowedText() const {
  std::string text;
  if (kind == ParamKind::Choice) {
    text = "one of ";
    for (std::size_t i = 0; i < choices.size(); ++i) text += (i ? ", " : "") + choices[i];
  } else if (kind == ParamKind::List) {
    text = "1 to " + std::to_string(maxLength) + " integers " + formatInteger(min) + ".." +
           formatInteger(max) + " separated by commas";
  } else {
    text = formatInteger(min) + ".." + formatInteger(max);
    if (multipleOf > 1) text += ", multiples of " + std::to_string(multipleOf);
  }
  if (allowsAuto) text += " or auto";
  return text;
}

ParamSpec integerParam(std::string name, ParamRole role, std::int64_t min, std::int64_t max,
                       std::string defaultValue, std::string unit, std::string meaning,
                       std::int64_t multipleOf) {
  ParamSpec spec;
  spec.name = std::move(name);
  spec.kind = ParamKind::Integer;
  spec.role = role;
  spec.min = min;
  spec.max = max;
  spec.multipleOf = multipleOf;
  spec.defaultValue = std::move(defaultValue);
  spec.unit = std::move(unit);
  spec.meaning = std::move(meaning);
  return spec;
}

ParamSpec choiceParam(std::string name, ParamRole role, std::vector<std::string> choices,
                      std::string defaultValue, std::string unit, std::string meaning) {
  ParamSpec spec;
  spec.name = std::move(name);
  spec.kind = ParamKind::Choice;
  spec.role = role;
  spec.choices = std::move(choices);
  spec.defaultValue = std::move(defaultValue);
  spec.unit = std::move(unit);
  spec.meaning = std::move(meaning);
  return spec;
}

ParamSpec autoChoiceParam(std::string name, ParamRole role, std::vector<std::string> choices,
                          std::string unit, std::string meaning) {
  ParamSpec spec = choiceParam(std::move(name), role, std::move(choices), "auto", std::move(unit),
                               std::move(meaning));
  spec.allowsAuto = true;
  return spec;
}

ParamSpec listParam(std::string name, ParamRole role, std::int64_t min, std::int64_t max,
                    std::size_t maxLength, std::string defaultValue, std::string unit,
                    std::string meaning) {
  ParamSpec spec = integerParam(std::move(name), role, min, max, std::move(defaultValue),
                                std::move(unit), std::move(meaning));
  spec.kind = ParamKind::List;
  spec.maxLength = maxLength;
  return spec;
}

std::vector<std::int64_t> listItems(const std::string& canonical) {
  std::vector<std::int64_t> items;
  std::size_t start = 0;
  while (start < canonical.size()) {
    const std::size_t comma = std::min(canonical.find(',', start), canonical.size());
    const auto value = parseInteger(std::string_view(canonical).substr(start, comma - start));
    if (!value) return {};
    items.push_back(*value);
    start = comma + 1;
  }
  return items;
}

std::string_view toString(ParamKind kind) {
  switch (kind) {
    case ParamKind::Integer: return "integer";
    case ParamKind::Choice: return "choice";
    case ParamKind::List: return "list";
  }
  return "integer";
}

std::string_view toString(ParamRole role) {
  return role == ParamRole::Problem ? "problem" : "launch";
}

std::vector<ParamSpec> withRole(const std::vector<ParamSpec>& specs, ParamRole role) {
  std::vector<ParamSpec> out;
  for (const auto& spec : specs)
    if (spec.role == role) out.push_back(spec);
  return out;
}

}  // namespace kwb
