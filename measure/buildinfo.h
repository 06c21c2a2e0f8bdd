#pragma once

#include <string>
#include <utility>
#include <vector>

namespace kwb {

// What this build is and runs on, for `kwb --version` and the window's About box: the version
// with its commit, the CUDA runtime and driver, NVRTC, CUPTI and the architectures the binary
// carries code for. Needs no GPU; a missing driver reads "none".
std::vector<std::pair<std::string, std::string>> buildInfo();
// "kwb VERSION", then one "name: value" line each.
std::string buildInfoText();

// "75-real;90" -> "SASS sm_75, sm_90; PTX compute_90".
std::string describeArchitectures(const std::string& cmakeArchitectures);

}  // namespace kwb
