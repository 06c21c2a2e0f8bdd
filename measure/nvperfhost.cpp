#include "measure/nvperfhost.h"

#include <cupti_profiler_target.h>
#include <dlfcn.h>

#include <string>

namespace kwb {

void preloadNvperfHost() {
  static const bool loaded = [] {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&cuptiProfilerInitialize), &info) == 0 || !info.dli_fname)
      return false;
    std::string path(info.dli_fname);
    path = path.substr(0, path.find_last_of('/') + 1) + "libnvperf_host.so";
    // Kept open for the life of the process, like CUPTI keeps it.
    return dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL) != nullptr;
  }();
  // Where the preload fails CUPTI still searches the usual way and reports what it misses.
  (void)loaded;
}

}  // namespace kwb
