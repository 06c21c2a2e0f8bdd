#pragma once

#include "core/error.h"

namespace kwb {

// Exit codes of `kwb`, documented in docs/cli.md.
enum ExitCode : int {
  kExitOk = 0,
  kExitFailed = 1,        // a run failed (CUDA error) or an internal error
  kExitBadInput = 2,      // bad command line or parameter
  kExitNoDevice = 3,      // no CUDA device on this machine
  kExitVerification = 4,  // a run's output differs from the CPU reference
  kExitDatabase = 5,      // the history database could not be opened, read or written
  kExitTool = 6,          // a toolkit program (cuobjdump) is missing or failed
  kExitRegression = 7,    // history --regressions found a run slower than its baseline
  kExitCancelled = 130,   // stopped by the user (as for SIGINT)
};

int exitCodeFor(ErrorKind kind);

}  // namespace kwb
