#include "core/sweep.h"

#include "core/error.h"
#include "core/valueparse.h"

namespace kwb {
namespace {

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    auto pos = text.find(separator, start);
    parts.emplace_back(text.substr(start, pos - start));
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return parts;
}

std::int64_t rangeBound(const ParamSpec& spec, const std::string& text) {
  auto value = parseInteger(text);
  if (!value) throw paramError(spec.name, "range bound '" + text + "' is not an integer");
  return *value;
}

std::vector<std::string> expandRange(const ParamSpec& spec, const std::vector<std::string>& parts) {
  if (spec.kind != ParamKind::Integer)
    throw paramError(spec.name, "a range needs an integer parameter; list the values instead (" +
                                    spec.allowedText() + ")");
  const std::int64_t first = rangeBound(spec, parts[0]);
  const std::int64_t last = rangeBound(spec, parts[1]);
  if (last < first) throw paramError(spec.name, "range end " + parts[1] + " is below its start");

  bool geometric = false;
  std::int64_t step = 1;
  if (parts.size() == 3) {
    std::string stepText = parts[2];
    geometric = !stepText.empty() && stepText.front() == '*';
    if (geometric) stepText.erase(0, 1);
    auto parsed = parseInteger(stepText);
    if (!parsed || *parsed < (geometric ? 2 : 1))
      throw paramError(
          spec.name, "range step '" + parts[2] + "' must be a positive integer, or *k with k >= 2");
    step = *parsed;
  }
  std::vector<std::string> values;
  for (std::int64_t v = first; v <= last;) {
    values.push_back(std::to_string(v));
    if (values.size() > kMaxSweepPoints)
      throw paramError(spec.name,
                       "the range has more than " + std::to_string(kMaxSweepPoints) + " values");
    if (geometric ? v > last / step : v > last - step) break;
    v = geometric ? v * step : v + step;
  }
  return values;
}

}  // namespace

SweepAxis parseSweepAxis(std::string_view text, const std::vector<ParamSpec>& specs) {
  auto eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == text.size())
    throw Error(ErrorKind::Usage, "sweep '" + std::string(text) +
                                      "' must look like name=v1,v2 or name=start:end[:step|:*k]");
  SweepAxis axis;
  axis.param = std::string(text.substr(0, eq));
  const ParamSpec* spec = findSpec(specs, axis.param);
  if (!spec)
    throw paramError(axis.param, "unknown parameter; this variant takes: " + joinNames(specs));

  auto valuesText = text.substr(eq + 1);
  auto rangeParts = split(valuesText, ':');
  std::vector<std::string> raw;
  if (rangeParts.size() == 2 || rangeParts.size() == 3)
    raw = expandRange(*spec, rangeParts);
  else if (rangeParts.size() == 1)
    // A list's own items are separated by commas, so its values are separated by semicolons.
    raw = split(valuesText, spec->kind == ParamKind::List ? ';' : ',');
  else
    throw Error(ErrorKind::Usage, "sweep '" + std::string(text) + "': a range is start:end[:step]");

  for (const auto& value : raw) axis.values.push_back(canonicalValue(*spec, value));
  return axis;
}

std::vector<ParamSet> expandSweep(const std::vector<ParamSpec>& specs, const RawParams& base,
                                  const std::vector<SweepAxis>& axes) {
  if (axes.empty() || axes.size() > kMaxSweepAxes)
    throw Error(ErrorKind::Usage,
                "a sweep takes one or two swept parameters, not " + std::to_string(axes.size()));
  if (axes.size() == 2 && axes[0].param == axes[1].param)
    throw paramError(axes[0].param, "is swept twice");
  for (const auto& axis : axes) {
    if (base.count(axis.param))
      throw paramError(axis.param, "is both swept and set; give it in one place");
    if (axis.values.empty()) throw paramError(axis.param, "the sweep has no values");
  }
  const std::size_t inner = axes.size() == 2 ? axes[1].values.size() : 1;
  if (axes[0].values.size() * inner > kMaxSweepPoints)
    throw Error(ErrorKind::Usage,
                "the sweep has more than " + std::to_string(kMaxSweepPoints) + " points");

  std::vector<ParamSet> points;
  for (const auto& outer : axes[0].values) {
    for (std::size_t j = 0; j < inner; ++j) {
      RawParams point = base;
      point[axes[0].param] = outer;
      if (axes.size() == 2) point[axes[1].param] = axes[1].values[j];
      points.push_back(resolveParams(specs, point));
    }
  }
  return points;
}

}  // namespace kwb
