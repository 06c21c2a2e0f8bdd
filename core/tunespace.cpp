#include "core/tunespace.h"

#include <algorithm>
#include <map>

#include "core/error.h"
#include "core/valueparse.h"

namespace kwb {
namespace {

// The names a restriction may use: every parameter whose values here are all numbers.
std::vector<std::string> numericNames(const RawParams& base, const std::vector<SweepAxis>& axes) {
  std::vector<std::string> names;
  for (const auto& [name, value] : base)
    if (parseInteger(value)) names.push_back(name);
  for (const auto& axis : axes)
    if (std::all_of(axis.values.begin(), axis.values.end(),
                    [](const std::string& v) { return parseInteger(v).has_value(); }))
      names.push_back(axis.param);
  return names;
}

}  // namespace

TuneSpace::TuneSpace(RawParams base, std::vector<SweepAxis> axes,
                     std::vector<std::string> restrictions, Resolve resolve)
    : base_(std::move(base)), axes_(std::move(axes)), resolve_(std::move(resolve)) {
  if (axes_.empty()) throw Error(ErrorKind::Usage, "a tuning needs at least one tuned parameter");
  for (std::size_t a = 0; a < axes_.size(); ++a) {
    const auto& axis = axes_[a];
    if (base_.count(axis.param))
      throw paramError(axis.param, "is both tuned and set; give it in one place");
    for (std::size_t b = 0; b < a; ++b)
      if (axes_[b].param == axis.param) throw paramError(axis.param, "is tuned twice");
    if (axis.values.empty()) throw paramError(axis.param, "has no values to tune over");
    if (size_ > kMaxTunePoints / axis.values.size())
      throw Error(ErrorKind::Usage, "the space has more than " + std::to_string(kMaxTunePoints) +
                                        " points; narrow a parameter's values");
    size_ *= axis.values.size();
  }
  const std::vector<std::string> names = numericNames(base_, axes_);
  for (auto& text : restrictions) restrictions_.emplace_back(std::move(text), names);

  valid_.assign(size_, false);
  for (std::size_t i = 0; i < size_; ++i) {
    valid_[i] = params(i).has_value();
    validCount_ += valid_[i];
  }
}

TunePoint TuneSpace::point(std::size_t index) const {
  TunePoint p(axes_.size());
  for (std::size_t a = axes_.size(); a-- > 0;) {
    p[a] = index % axes_[a].values.size();
    index /= axes_[a].values.size();
  }
  return p;
}

std::size_t TuneSpace::index(const TunePoint& point) const {
  std::size_t index = 0;
  for (std::size_t a = 0; a < axes_.size(); ++a) index = index * axes_[a].values.size() + point[a];
  return index;
}

RawParams TuneSpace::raw(const TunePoint& point) const {
  RawParams raw = base_;
  for (std::size_t a = 0; a < axes_.size(); ++a) raw[axes_[a].param] = axes_[a].values[point[a]];
  return raw;
}

std::string TuneSpace::restrictionBroken(const RawParams& raw) const {
  std::map<std::string, double> values;
  for (const auto& [name, value] : raw)
    if (const auto number = parseInteger(value)) values[name] = static_cast<double>(*number);
  for (const auto& restriction : restrictions_)
    if (restriction.evaluate(values) == 0) return "breaks " + restriction.text();
  return {};
}

void TuneSpace::keepShard(const Shard& shard) {
  otherShare_.assign(size_, false);
  std::size_t position = 0;
  for (std::size_t i = 0; i < size_; ++i) {
    if (!valid_[i] || shard.contains(position++)) continue;
    valid_[i] = false;
    otherShare_[i] = true;
    --validCount_;
  }
}

std::optional<ParamSet> TuneSpace::params(std::size_t index, std::string* why) const {
  if (!otherShare_.empty() && otherShare_[index]) {
    if (why) *why = "another task's share of the space";
    return std::nullopt;
  }
  const RawParams r = raw(point(index));
  std::string broken = restrictionBroken(r);
  if (broken.empty()) {
    try {
      return resolve_(r);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::Param) throw;
      broken = e.what();
    }
  }
  if (why) *why = std::move(broken);
  return std::nullopt;
}

std::optional<std::size_t> TuneSpace::find(const ParamSet& params) const {
  TunePoint p(axes_.size());
  for (std::size_t a = 0; a < axes_.size(); ++a) {
    if (!params.has(axes_[a].param)) return std::nullopt;
    const auto& values = axes_[a].values;
    const auto it = std::find(values.begin(), values.end(), params.get(axes_[a].param));
    if (it == values.end()) return std::nullopt;
    p[a] = static_cast<std::size_t>(it - values.begin());
  }
  const std::size_t i = index(p);
  if (!valid_[i] || this->params(i) != params) return std::nullopt;  // base values, defaults
  return i;
}

std::string tunedValuesText(const std::vector<SweepAxis>& axes,
                            const std::function<std::string(const std::string& param)>& valueOf) {
  std::string text;
  for (const auto& axis : axes)
    text += (text.empty() ? "" : " ") + axis.param + "=" + valueOf(axis.param);
  return text;
}

std::string TuneSpace::describe(std::size_t index) const {
  const RawParams values = raw(point(index));
  return tunedValuesText(axes_, [&](const std::string& param) { return values.at(param); });
}

}  // namespace kwb
