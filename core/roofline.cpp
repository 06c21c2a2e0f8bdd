#include "core/roofline.h"

#include <algorithm>

#include "core/format.h"
#include "core/traffic.h"

namespace kwb {
namespace {

// Above the roof by more than the ceilings' own spread: a measurement, not the card, is wrong.
constexpr double kAboveRoof = 1.05;

}  // namespace

std::optional<RooflinePoint> rooflinePoint(const RunResult& run) {
  if (!run.flops || *run.flops <= 0 || run.bytes == 0 || run.stats.median <= 0) return std::nullopt;
  return RooflinePoint{*run.flops / static_cast<double>(run.bytes), *run.flops / run.stats.median};
}

std::optional<RooflinePoint> measuredRooflinePoint(const RunResult& run) {
  if (run.stats.median <= 0) return std::nullopt;
  double flops = 0;
  for (const char* precision : {"h", "f", "d"})
    for (const auto& [op, weight] : {std::pair{"add", 1.0}, {"mul", 1.0}, {"fma", 2.0}}) {
      const auto count = run.metricValue(std::string("smsp__sass_thread_inst_executed_op_") +
                                         precision + op + "_pred_on.sum");
      if (!count) return std::nullopt;
      flops += weight * *count;
    }
  const auto bytes = dramBytes(run);
  if (!bytes || *bytes <= 0 || flops <= 0) return std::nullopt;
  return RooflinePoint{flops / *bytes, flops / run.stats.median};
}

double Roofs::at(double intensity) const {
  return std::min(intensity * bandwidth, flops);
}

std::optional<Roofs> roofsFor(const RunResult& run, const std::vector<DeviceCeiling>& ceilings) {
  const std::string_view memory = run.mode == TimingMode::Hot ? "l2" : "dram";
  const std::string_view compute = run.dtype() == "f64" ? "fp64" : "fp32";
  Roofs roofs;
  for (const DeviceCeiling& c : ceilings) {
    if (c.name == memory) roofs.bandwidth = c.value;
    if (c.name == compute) roofs.flops = c.value;
  }
  if (roofs.bandwidth <= 0 || roofs.flops <= 0) return std::nullopt;
  roofs.memory = ceilingSpec(memory);
  roofs.compute = ceilingSpec(compute);
  return roofs;
}

std::optional<RooflineReading> readRoofline(const RunResult& run,
                                            const std::vector<DeviceCeiling>& ceilings) {
  const auto point = rooflinePoint(run);
  const auto roofs = roofsFor(run, ceilings);
  if (!point || !roofs) return std::nullopt;
  RooflineReading r{*point, *roofs, point->flopsPerSecond / roofs->at(point->intensity), false, {}};
  r.aboveRoof = r.ofRoof > kAboveRoof;
  const std::string achieved = formatCeiling(*roofs->compute, point->flopsPerSecond);
  if (r.aboveRoof)
    r.sentence = formatted(
        "%.3g FLOP/byte at %s: %.2fx the roof the card measured, which no kernel passes: the "
        "declared flops or bytes are wrong, or the data came from a faster memory than %s",
        point->intensity, achieved.c_str(), r.ofRoof, std::string(roofs->memory->label).c_str());
  else
    r.sentence = formatted(
        "%.3g FLOP/byte at %s, %.2f of the roof there: %s-bound (the ridge is at %.3g FLOP/byte)",
        point->intensity, achieved.c_str(), r.ofRoof,
        std::string(point->intensity < roofs->ridge() ? roofs->memory->label
                                                      : roofs->compute->label)
            .c_str(),
        roofs->ridge());
  return r;
}

}  // namespace kwb
