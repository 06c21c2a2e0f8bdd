#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/deviceinfo.h"

namespace kwb {

// A ceiling of a device that a micro-kernel measures on the card itself, as the Empirical
// Roofline Toolkit does: memory bandwidths and arithmetic throughputs.
struct CeilingSpec {
  std::string_view name;  // "fp32", as stored
  std::string_view label;
  bool bandwidth;  // bytes/s; otherwise FLOP/s
  std::string_view how;
};

inline constexpr std::array<CeilingSpec, 7> kCeilings{{
    {"dram", "DRAM", true, "the faster of the copy ceiling and a read of a buffer far past L2"},
    {"l2", "L2", true, "128-bit reads, past L1, of a buffer a quarter of L2, again and again"},
    {"shared", "shared memory", true, "128-bit reads of shared memory, free of bank conflicts"},
    {"fp32", "FP32 FMA", false, "eight independent fused multiply-adds per thread"},
    {"fp16", "FP16 FMA", false, "the same on half2 pairs"},
    {"bf16", "BF16 FMA", false, "the same on bfloat162 pairs"},
    {"fp64", "FP64 FMA", false, "the same in double precision"},
}};

// The spec of a ceiling name; nullptr for none.
const CeilingSpec* ceilingSpec(std::string_view name);

// What one measurement found.
struct DeviceCeiling {
  std::string name;
  double value = 0;             // bytes/s or FLOP/s
  double smClockMhz = 0;        // the SM clock while it ran; 0 where unknown
  std::int64_t measuredAt = 0;  // unix ms
};

// The datasheet's figure for a ceiling at an SM clock (MHz): FLOP/s from the architecture's FMA
// lanes per SM, shared memory from 32 banks of 4 bytes per SM per clock, DRAM from the memory
// clock and bus (whatever the SM clock). None for L2, whose bandwidth NVIDIA does not publish, or
// for an architecture this build does not know.
std::optional<double> datasheetPeak(const DeviceInfo& device, std::string_view ceiling,
                                    double smClockMhz);

// "3.01 TB/s", "66.9 TFLOP/s".
std::string formatCeiling(const CeilingSpec& spec, double value);

}  // namespace kwb
