#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kwb {

// One error compute-sanitizer's memcheck reports: what the access did, the kernel and, for code
// compiled with -lineinfo (kernel files are), its source line.
struct MemcheckFinding {
  std::string what;    // "Invalid __global__ write of size 4 bytes"
  std::string kernel;  // "transpose+0x1c0"
  std::string file;    // empty without line information
  int line = 0;
  std::string thread;   // "thread (0,0,0) in block (0,0,0)"
  std::string address;  // "Access to 0x7f... is out of bounds, is 1 bytes after the nearest ..."
};

struct MemcheckReport {
  bool complete = false;  // its "ERROR SUMMARY" line was read
  std::size_t errors = 0;
  std::vector<MemcheckFinding> findings;  // as many as it printed (--print-limit)
};

// Reads memcheck's output ("========= Invalid __global__ write ..."); other lines are the
// program's own and are skipped.
MemcheckReport parseMemcheck(std::string_view text);

}  // namespace kwb
