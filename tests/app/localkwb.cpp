#include <cstdlib>

// Commands run in-process here that start workers (--devices, --host's relay) or Slurm tasks start
// this build's kwb, never this test program.
namespace {
const bool kLocalKwb = setenv("KWB_LOCAL_KWB", KWB_EXECUTABLE, 1) == 0 &&
                       setenv("KWB_SLURM_KWB", KWB_EXECUTABLE, 0) == 0;
}  // namespace
