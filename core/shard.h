#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace kwb {

// One task's share of a sweep's or a tuning's points (`--shard I/N`, as each task of a Slurm job
// array runs it): the points whose position among the valid ones is I modulo N, so that the N
// shares together are every point once and differ in size by one at most.
struct Shard {
  std::size_t index = 0;
  std::size_t count = 1;
  bool whole() const { return count == 1; }
  bool contains(std::size_t position) const { return position % count == index; }
};

// "I/N" with 0 <= I < N; Error(Usage) naming --shard otherwise.
Shard parseShard(std::string_view text);
std::string toString(const Shard& shard);

}  // namespace kwb
