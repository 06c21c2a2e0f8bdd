#pragma once

namespace kwb {

// CUPTI opens libnvperf_host by its bare name when profiling starts, which fails unless the
// toolkit's library folder is on LD_LIBRARY_PATH. Opening it first by full path, from the folder
// libcupti itself was loaded from, lets CUPTI find the copy already in the process.
void preloadNvperfHost();

}  // namespace kwb
