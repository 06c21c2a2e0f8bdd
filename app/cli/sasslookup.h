#pragma once

#include <memory>
#include <string>

#include "core/paramset.h"
#include "core/sass.h"

namespace kwb {

class Runner;
class SassCache;
class Variant;

// The machine code of the kernels one configuration launches: which kernels, learned by running
// one call on the device; their listings from the cache, else from cuobjdump on this program's
// own binary, or on a user kernel's cubin (then cached). cache may be null. Throws Error(NoDevice),
// Error(Param) for a configuration the device rejects, Error(Tool) without cuobjdump where the
// cache lacks a listing.
SassReport lookUpSass(Runner& runner, SassCache* cache,
                      const std::shared_ptr<const Variant>& kernel, const ParamSet& params);

}  // namespace kwb
