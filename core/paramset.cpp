#include "core/paramset.h"

#include "core/error.h"
#include "core/valueparse.h"

namespace kwb {

bool ParamSet::isAuto(std::string_view name) const {
  auto it = values_.find(name);
  return it != values_.end() && it->second == "auto";
}

const std::string& ParamSet::get(std::string_view name) const {
  auto it = values_.find(name);
  if (it == values_.end())
    throw Error(ErrorKind::Internal, "parameter '" + std::string(name) + "' has no value");
  return it->second;
}

std::int64_t ParamSet::getInt(std::string_view name) const {
  const std::string& text = get(name);
  auto value = parseInteger(text);
  if (!value)
    throw Error(ErrorKind::Internal,
                "parameter '" + std::string(name) + "' is not an integer: " + text);
  return *value;
}

std::string ParamSet::toText() const {
  std::string text;
  for (const auto& [name, value] : values_) {
    if (!text.empty()) text += ' ';
    auto number = parseInteger(value);
    text += name + "=" + (number ? formatInteger(*number) : value);
  }
  return text;
}

}  // namespace kwb
