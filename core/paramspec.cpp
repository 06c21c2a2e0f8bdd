#include "core/paramspec.h"

#include "core/valueparse.h"

namespace kwb {

std::string ParamSpec::allowedText() const {
  std::string text;
  if (kind == ParamKind::Choice) {
    text = "one of ";
    for (std::size_t i = 0; i < choices.size(); ++i) text += (i ? ", " : "") + choices[i];
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

std::string_view toString(ParamKind kind) {
  return kind == ParamKind::Integer ? "integer" : "choice";
}

std::string_view toString(ParamRole role) {
  return role == ParamRole::Problem ? "problem" : "launch";
}

}  // namespace kwb
