#pragma once

#include <istream>
#include <ostream>

namespace kwb {

class RunStore;

// Serves the worker protocol (docs/protocol.md) on in/out until a shutdown request or the end of
// the input. Requests are validated as they arrive; GPU jobs run one at a time in order, and a
// cancel request stops the running one between samples. Results are stored when store is set.
// Returns the process exit code.
int runWorker(std::istream& in, std::ostream& out, RunStore* store, int deviceOrdinal);

}  // namespace kwb
