#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/sass.h"

namespace kwb {

// The toolkit's cuobjdump: $KWB_CUOBJDUMP, else bin/ of $CUDA_HOME, $CUDA_PATH, the toolkit this
// was built with and /usr/local/cuda, else the PATH. nullopt where none is found.
std::optional<std::string> findCuobjdump();

// The running program's own file, whose fat binary holds the kernels it launches.
std::string currentExecutable();

// Names one version of a file by its contents ("<bytes>-<64-bit hash>"): a rebuilt binary gets a
// new name, a copied one keeps it. Throws Error(Tool) when the file cannot be read.
std::string fileFingerprint(const std::string& path);

// The SASS architectures the binary carries ("sm_90"). Throws Error(Tool) when cuobjdump fails.
std::vector<std::string> sassArchitectures(const std::string& tool, const std::string& binary);

// The listings of the named functions (mangled) for one architecture; names the binary does not
// hold are missing from the result. Throws Error(Tool) when cuobjdump fails.
std::vector<SassFunction> dumpSass(const std::string& tool, const std::string& binary,
                                   const std::string& arch,
                                   const std::vector<std::string>& symbols);

}  // namespace kwb
