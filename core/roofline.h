#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ceilings.h"
#include "core/runresult.h"

namespace kwb {

// A run on the roofline: its arithmetic intensity (declared flops over declared bytes) against
// the FLOP/s it achieved. None for a run without declared flops above 0, bytes or a time.
struct RooflinePoint {
  double intensity = 0;  // FLOP/byte
  double flopsPerSecond = 0;
};
std::optional<RooflinePoint> rooflinePoint(const RunResult& run);
// The same from the counters of one call, where the run read the flops and memory metric sets:
// adds, multiplies and twice the FMAs executed over the DRAM bytes read and written. The compiled
// arithmetic, which the declared count only estimates (an erf is one declared flop and a dozen
// FMAs); packed half2 instructions count once, as Nsight Compute counts them.
std::optional<RooflinePoint> measuredRooflinePoint(const RunResult& run);

// The roofs a run is held to, from the device's measured ceilings: the memory its data comes
// from (DRAM when timed cold, L2 when hot) and the arithmetic it does (FP64 for f64 data, else
// FP32: 16-bit elementwise math runs in float).
struct Roofs {
  const CeilingSpec* memory = nullptr;
  const CeilingSpec* compute = nullptr;
  double bandwidth = 0;  // bytes/s
  double flops = 0;      // FLOP/s
  // The roof at an intensity, and where memory stops binding.
  double at(double intensity) const;
  double ridge() const { return flops / bandwidth; }
};
std::optional<Roofs> roofsFor(const RunResult& run, const std::vector<DeviceCeiling>& ceilings);

// The point against its roof, with a sentence: what bounds it and how close it comes, or, above
// the roof, that the figure is wrong (a roof is what the card can do).
struct RooflineReading {
  RooflinePoint point;
  Roofs roofs;
  double ofRoof = 0;
  bool aboveRoof = false;
  std::string sentence;
};
std::optional<RooflineReading> readRoofline(const RunResult& run,
                                            const std::vector<DeviceCeiling>& ceilings);

}  // namespace kwb
