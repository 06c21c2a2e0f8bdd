#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/paramset.h"
#include "core/paramspec.h"
#include "core/validation.h"

namespace kwb {

// One swept parameter with its values in canonical form, in the order they run.
struct SweepAxis {
  std::string param;
  std::vector<std::string> values;
};

inline constexpr std::size_t kMaxSweepAxes = 2;
inline constexpr std::size_t kMaxSweepPoints = 10000;

// "block_size=64,128,256" (list), "waves=1:8" (range, step 1), "block_size=64:1024:64" (range with
// a step), "n=2^20:2^28:*2" (geometric: each value times 2). Every value is checked against the
// parameter's spec; Error(Param) names the parameter, Error(Usage) a malformed axis.
SweepAxis parseSweepAxis(std::string_view text, const std::vector<ParamSpec>& specs);

// The cartesian product of the axes over the base values (first axis outermost), each point
// resolved and validated. At most two axes; a swept parameter may not also be set in base.
std::vector<ParamSet> expandSweep(const std::vector<ParamSpec>& specs, const RawParams& base,
                                  const std::vector<SweepAxis>& axes);

}  // namespace kwb
