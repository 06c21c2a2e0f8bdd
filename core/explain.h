#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/runresult.h"
#include "core/sass.h"

namespace kwb {

// A hardware metric of two runs.
struct MetricChange {
  std::string name;
  std::string unit;
  double before = 0;
  double after = 0;
  double ratio = 0;  // after / before; infinite from 0
};

// The counter metrics both runs read (not GPU state, host or trace figures), the run's own values
// (not each kernel's), ranked by how far they moved (the size of the log of their ratio), largest
// first; those within 1 % are left out.
std::vector<MetricChange> metricChanges(const RunResult& before, const RunResult& after);

// "run 12: permute/tiled dtype=f32 ... tile_size=64": which run a reading is about.
std::string describeRun(std::int64_t id, const RunResult& run);
// "0.120x", or "from 0".
std::string ratioText(const MetricChange& change);

// What the change of two runs shows, a sentence per known pattern: the time and its verdict,
// sectors per global request (coalescing), shared-memory bank conflicts, achieved against
// theoretical occupancy, waves of blocks, instructions executed and DRAM traffic. A pattern the
// runs' metrics do not cover says nothing.
std::vector<std::string> readDifference(const RunResult& before, const RunResult& after);

// The machine code's global loads and stores of two runs' kernels (summed over the kernels a call
// launches), when their widths changed: "32-bit (LDG.E x2 STG.E x1) -> 128-bit (LDG.E.128 x2
// STG.E.128 x1)". One 128-bit access moves what four 32-bit ones do, in a quarter of the
// instructions and requests. None when the widths are the same.
std::optional<std::string> readSassDifference(const SassSummary& before, const SassSummary& after);

// The summaries of a call's kernels as one: their instructions and notable opcodes added.
SassSummary combinedSass(const std::vector<SassSummary>& kernels);

}  // namespace kwb
