#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/paramset.h"
#include "core/paramspec.h"

namespace kwb {

using RawParams = std::map<std::string, std::string, std::less<>>;

// "name=value" items as given on a command line; Error(Usage) for one without a name or "=",
// Error(Param) for a name given twice.
RawParams rawParamsOf(const std::vector<std::string>& items);

// The canonical form of one value, or Error(Param) naming the parameter and what is allowed.
std::string canonicalValue(const ParamSpec& spec, const std::string& raw);

// Every given name must be a known parameter; missing ones take their defaults. Throws
// Error(Param) for the first problem found.
ParamSet resolveParams(const std::vector<ParamSpec>& specs, const RawParams& given);

const ParamSpec* findSpec(const std::vector<ParamSpec>& specs, std::string_view name);

// "n, dtype, block_size" for error messages.
std::string joinNames(const std::vector<ParamSpec>& specs);

}  // namespace kwb
