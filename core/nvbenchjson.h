#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/deviceinfo.h"
#include "core/runrecord.h"

namespace kwb {

// nvbench's JSON results (docs/json_output.md and json_printer.cu of nvbench): devices,
// benchmarks with their axes, and one state per measured point with tagged summaries
// ("nv/cold/time/gpu/mean", ...), sample times in binary sidecar files ("FILE-bin/N.bin", float32
// little-endian) where the file names one.

// What a file held: its runs as runs of the "imported" family (variant: the benchmark's name,
// parameters: the state's axis values), the devices they ran on, and what was left out.
struct NvbenchImport {
  std::string version;  // "1.0.0"; "0" for files written before nvbench versioned its JSON
  std::vector<DeviceInfo> devices;
  std::vector<RunResult> runs;
  std::size_t skipped = 0;  // states nvbench skipped, which hold no times
};

inline constexpr const char* kImportedFamily = "imported";

// Reads a file of any nvbench JSON version: 1.x (summaries as a list with "data"), and the
// earlier one (summaries keyed by tag with "values"). Throws Error(Usage) with one sentence naming
// the file and the place, for a file that is not JSON, is cut short or is not nvbench's.
NvbenchImport readNvbenchJson(const std::string& path);

// Runs as nvbench JSON version 1.0.0: a benchmark per kernel, an axis per parameter, a state per
// run. With `samplesFor` (the JSON file's path), each run's samples go to "PATH-bin/N.bin" and
// its state names the file, as nvbench's --jsonbin does.
nlohmann::ordered_json toNvbenchJson(const std::vector<RunRecord>& records,
                                     const std::vector<DeviceInfo>& devices,
                                     const std::string& samplesFor = {});

}  // namespace kwb
