#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kwb {

// A program of the CUDA toolkit (cuobjdump, compute-sanitizer): $OVERRIDE where set, else bin/ of
// $CUDA_HOME, $CUDA_PATH, the toolkit this was built with and /usr/local/cuda, else the PATH.
// nullopt where none is found.
std::optional<std::string> findToolkitProgram(const std::string& name,
                                              const char* overrideVariable);

struct ProgramOutput {
  int status = 0;  // as waitpid gives it
  std::string out;
  std::string err;
};

// Runs argv[0] (a path, or a name looked up on PATH) with its arguments, no shell in between, and
// collects both output streams.
// Throws Error(Tool) where it cannot be started.
ProgramOutput runProgram(const std::vector<std::string>& argv);

}  // namespace kwb
