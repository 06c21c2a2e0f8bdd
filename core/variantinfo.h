#pragma once

#include <string>
#include <vector>

#include "core/paramspec.h"

namespace kwb {

// What the registry says about one kernel variant: enough to list it, edit its parameters and
// validate them, with no GPU at hand.
struct VariantInfo {
  std::string family;
  std::string name;
  std::string summary;  // one line
  std::string teaches;  // "what this teaches", a short paragraph
  std::vector<ParamSpec> params;
  std::string sizeParam;  // the parameter that sets the memory footprint ("n")
};

struct FamilyInfo {
  std::string name;
  std::string summary;
  std::vector<VariantInfo> variants;
};

}  // namespace kwb
