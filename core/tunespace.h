#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/paramset.h"
#include "core/shard.h"
#include "core/specexpression.h"
#include "core/sweep.h"
#include "core/validation.h"

namespace kwb {

// The most points a tuning space may have: every one is checked for validity up front.
inline constexpr std::size_t kMaxTunePoints = 1'000'000;

// A point of a space: for each tuned parameter, the index of its value.
using TunePoint = std::vector<std::size_t>;

// "block_size=256 pack_size=4": each axis's parameter with the value valueOf gives it, in the
// axes' order; the text a space describes its points by and a replay finds its runs by.
std::string tunedValuesText(const std::vector<SweepAxis>& axes,
                            const std::function<std::string(const std::string& param)>& valueOf);

// The configurations a tuning may try: the cartesian product of its axes (any number of tuned
// parameters, each parsed as a sweep axis) over fixed base values, less the points that break a
// restriction (the user's expressions over parameter values, such as "block_size * unroll <=
// 4096") or that the variant rejects. Points are numbered 0..size()-1, the first axis outermost.
class TuneSpace {
 public:
  // Validated parameters of a point, or Error(Param) where the variant rejects it.
  using Resolve = std::function<ParamSet(const RawParams&)>;

  // Error(Usage) for no axes, a parameter tuned twice or also fixed in base, an unreadable
  // restriction or one naming a parameter without numeric values, a space over kMaxTunePoints.
  TuneSpace(RawParams base, std::vector<SweepAxis> axes, std::vector<std::string> restrictions,
            Resolve resolve);

  const RawParams& base() const { return base_; }
  const std::vector<SweepAxis>& axes() const { return axes_; }
  const std::vector<SpecExpression>& restrictions() const { return restrictions_; }
  std::size_t size() const { return size_; }
  std::size_t validCount() const { return validCount_; }

  TunePoint point(std::size_t index) const;
  std::size_t index(const TunePoint& point) const;
  // The point's parameters where it is valid; otherwise nothing, with why set.
  std::optional<ParamSet> params(std::size_t index, std::string* why = nullptr) const;
  bool valid(std::size_t index) const { return valid_[index]; }
  // Leaves valid only the points of this share of the valid ones; the others are another task's.
  void keepShard(const Shard& shard);
  // The valid point whose parameters these are, all of them (a stored run's problem and launch
  // together), if the space holds it.
  std::optional<std::size_t> find(const ParamSet& params) const;
  // "block_size=256 pack_size=4": the tuned values only.
  std::string describe(std::size_t index) const;

 private:
  RawParams raw(const TunePoint& point) const;
  std::string restrictionBroken(const RawParams& raw) const;

  RawParams base_;
  std::vector<SweepAxis> axes_;
  std::vector<SpecExpression> restrictions_;
  Resolve resolve_;
  std::size_t size_ = 1;
  std::vector<bool> valid_;
  std::vector<bool> otherShare_;  // valid, but another task's
  std::size_t validCount_ = 0;
};

}  // namespace kwb
