#pragma once

#include <cstddef>
#include <string>

namespace kwb {

class RunStore;

struct ImportOutcome {
  std::string version;         // of the file's JSON
  std::size_t runs = 0;        // added
  std::size_t duplicates = 0;  // already in the history, skipped
  std::size_t skipped = 0;     // states without GPU times
  std::size_t devices = 0;
};

// Adds the results of an nvbench JSON file (core/nvbenchjson.h) to the history, with their
// devices: runs of the "imported" family, each started at the file's modification time (plus its
// place in the file, so that importing the file again adds nothing). Reads the whole file before
// storing anything: a file that cannot be read stores nothing (Error(Usage) with the reason).
ImportOutcome importNvbench(RunStore& target, const std::string& path);

}  // namespace kwb
