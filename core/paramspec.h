#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kwb {

// Integer: one integer; Choice: one of a list of words; List: integers separated by commas (a
// shape, a permutation), each within min..max, 1..maxLength of them.
enum class ParamKind { Integer, Choice, List };

// Problem parameters say what is computed; launch parameters say how.
enum class ParamRole { Problem, Launch };

// One parameter of a kernel variant: the registry's single description of it, from which the
// CLI, the worker, the GUI's editors, validation and sweeps all work.
struct ParamSpec {
  std::string name;
  ParamKind kind = ParamKind::Integer;
  ParamRole role = ParamRole::Launch;
  std::int64_t min = 0;  // Integer, and each item of a List: inclusive range
  std::int64_t max = 0;
  std::int64_t multipleOf = 1;       // Integer: values must be multiples of this
  std::vector<std::string> choices;  // Choice: the allowed values, in display order
  std::size_t maxLength = 0;         // List: most items
  bool allowsAuto = false;           // "auto" is accepted besides the values above
  std::string defaultValue;
  std::string unit;
  std::string meaning;  // one line

  // "32..1024, multiples of 32", "one of f32, f16, bf16", "1..64 or auto".
  std::string allowedText() const;
};

ParamSpec integerParam(std::string name, ParamRole role, std::int64_t min, std::int64_t max,
                       std::string defaultValue, std::string unit, std::string meaning,
                       std::int64_t multipleOf = 1);
ParamSpec choiceParam(std::string name, ParamRole role, std::vector<std::string> choices,
                      std::string defaultValue, std::string unit, std::string meaning);
// A choice that defaults to auto: the workload picks one of the choices where none is given.
ParamSpec autoChoiceParam(std::string name, ParamRole role, std::vector<std::string> choices,
                          std::string unit, std::string meaning);
ParamSpec listParam(std::string name, ParamRole role, std::int64_t min, std::int64_t max,
                    std::size_t maxLength, std::string defaultValue, std::string unit,
                    std::string meaning);

// The specs of one role, in their order: a variant's problem or launch parameters.
std::vector<ParamSpec> withRole(const std::vector<ParamSpec>& specs, ParamRole role);

// The items of a List value in canonical form ("64,512,512"); empty for other text.
std::vector<std::int64_t> listItems(const std::string& canonical);

std::string_view toString(ParamKind kind);
std::string_view toString(ParamRole role);

}  // namespace kwb
