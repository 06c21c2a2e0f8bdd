#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/runresult.h"

namespace kwb {

// One kernel launch of a call as waves of blocks over the SMs: the grid, the blocks an SM holds
// at once (the occupancy calculation) and what limits that number.
struct WaveLaunch {
  long long grid = 0;
  int block = 0;
  int residentPerSm = 0;
  std::string limiter;  // "registers", "shared memory", "threads" or "blocks"
  int smCount = 0;

  long long perWave() const { return static_cast<long long>(residentPerSm) * smCount; }
  double waves() const;
  int fullWaves() const;
  long long tailBlocks() const;  // blocks of the last, partial wave; 0 when the waves are whole
  // Of the time the launch takes, the part the SMs spend waiting on a partial last wave if every
  // block takes as long: 1 - waves / ceil(waves). A grid smaller than a wave idles SMs the same
  // way.
  double tailCost() const;
  // Blocks SM `sm` runs in wave `wave`, the blocks dealt round the SMs in order.
  int blocksAt(int sm, int wave) const;
};

// The derived values a run records for the waves of its launches (resident_blocks, limiter and
// wave_count, suffixed _1, _2 ... where a call launches several kernels), read back; none for a run
// before they were recorded or whose kernels were not seen (graphs, a tool holding CUPTI).
std::vector<WaveLaunch> waveLaunches(const RunResult& run, int smCount);
// The launch of a call with the most blocks: the one whose waves show in its time.
std::optional<WaveLaunch> widestLaunch(const RunResult& run, int smCount);
// What record sets: the derived values of the call's launches, in launch order.
void recordWaves(ParamSet& derived, const std::vector<WaveLaunch>& launches);

// One sentence on a launch's waves: how many, the partial last one, its predicted cost, what
// limits the blocks per SM.
std::string wavesSentence(const WaveLaunch& launch, double seconds);

// The saw-tooth that waves predict across a sweep: time = overhead + bytes x (ceil(waves) / waves)
// / bandwidth, the two constants fitted to the measured runs by least squares. A run is predicted
// by what its data costs at the fitted bandwidth, stretched by its idle tail.
struct WaveModel {
  double secondsPerByte = 0;
  double overhead = 0;
  double predict(const RunResult& run, const WaveLaunch& launch) const;
};
// None with fewer than two runs that have waves, a time and bytes.
std::optional<WaveModel> fitWaves(const std::vector<RunResult>& runs, int smCount);

}  // namespace kwb
