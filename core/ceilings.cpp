#include "core/ceilings.h"

#include <cmath>
#include <cstdio>

namespace kwb {
namespace {

// Fused multiply-adds per SM per clock, in elements (a half2 FMA is two), by compute capability:
// the architecture whitepapers' per-SM figures for the GPUs without tensor cores in the path.
struct Lanes {
  int major, minor;
  int fp32, fp16, bf16, fp64;
};
constexpr std::array<Lanes, 6> kLanes{{
    {7, 0, 64, 128, 0, 32},     // V100
    {7, 5, 64, 128, 0, 2},      // Turing
    {8, 0, 64, 256, 256, 32},   // A100
    {8, 6, 128, 128, 128, 2},   // GA10x
    {8, 9, 128, 128, 128, 2},   // Ada
    {9, 0, 128, 256, 256, 64},  // H100, H200
}};

}  // namespace

const CeilingSpec* ceilingSpec(std::string_view name) {
  for (const auto& spec : kCeilings)
    if (spec.name == name) return &spec;
  return nullptr;
}

std::optional<double> datasheetPeak(const DeviceInfo& d, std::string_view ceiling,
                                    double smClockMhz) {
  if (ceiling == "dram")
    return d.peakBandwidth > 0 ? std::optional<double>(d.peakBandwidth) : std::nullopt;
  if (smClockMhz <= 0 || d.smCount <= 0) return std::nullopt;
  const double perClock = d.smCount * smClockMhz * 1e6;
  if (ceiling == "shared") return 128.0 * perClock;
  for (const Lanes& lanes : kLanes) {
    if (lanes.major != d.ccMajor || lanes.minor != d.ccMinor) continue;
    const int fma = ceiling == "fp32"   ? lanes.fp32
                    : ceiling == "fp16" ? lanes.fp16
                    : ceiling == "bf16" ? lanes.bf16
                    : ceiling == "fp64" ? lanes.fp64
                                        : 0;
    if (fma == 0) return std::nullopt;
    return 2.0 * fma * perClock;  // an FMA is two flops
  }
  return std::nullopt;
}

std::string formatCeiling(const CeilingSpec& spec, double value) {
  if (!std::isfinite(value) || value <= 0) return "-";
  char text[32];
  std::snprintf(text, sizeof text, value >= 1e12 ? "%.2f T%s" : "%.1f G%s",
                value >= 1e12 ? value * 1e-12 : value * 1e-9, spec.bandwidth ? "B/s" : "FLOP/s");
  return text;
}

}  // namespace kwb
