#pragma once

#include <cstdint>
#include <memory>

#include "core/tunestrategy.h"

namespace kwb {

// The strategies that learn from scores, each in a file of its own; makeTuneStrategy picks.
std::unique_ptr<TuneStrategy> makeAnnealingSearch(const TuneSpace& space, std::uint64_t seed);
std::unique_ptr<TuneStrategy> makeGeneticSearch(const TuneSpace& space, std::uint64_t seed);
std::unique_ptr<TuneStrategy> makeModelBasedSearch(const TuneSpace& space, std::uint64_t seed);

}  // namespace kwb
