#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/runresult.h"

namespace kwb {

// One reading of the GPU's state; values a source cannot give stay NaN.
struct GpuStateSample {
  double smClockMhz = NAN;
  double memClockMhz = NAN;
  double temperatureC = NAN;
  double powerW = NAN;
  double energyJ = NAN;    // the device's energy counter since the driver loaded
  bool throttled = false;  // clocks held down by power, thermal or hardware slowdown
};

// Where readings come from: NVML, or (without it) a kernel that times its own clock cycles.
enum class GpuStateSource { Nvml, ClockKernel };

// The run's GPU state from the readings taken before, during and after timing: SM clock median
// and minimum, memory clock, peak temperature, mean power, energy used between the first and
// last reading, how many readings there were and how many timing samples were throttled.
// The run's median SM clock (MHz): NVML's reading, else the clock-measuring kernel's.
std::optional<double> smClockOf(const RunResult& run);

std::vector<Metric> gpuStateMetrics(const std::vector<GpuStateSample>& samples,
                                    GpuStateSource source, std::size_t throttledSamples);

}  // namespace kwb
