#pragma once

// The unsigned types kernels move bytes in, whatever the values are: permutations, gathers.
#include <cstdint>
#include <string>

#include <cuda_runtime.h>

#include "core/error.h"

namespace kwb {

// Calls f with a value of the unsigned type `bytes` wide (1, 2, 4, 8, or 16 where MaxBytes
// allows it); Error(Internal) naming `kernel` for any other width.
template <int MaxBytes = 16, typename F>
void withUnit(int bytes, const char* kernel, F&& f) {
  switch (bytes) {
    case 1: return f(std::uint8_t{});
    case 2: return f(std::uint16_t{});
    case 4: return f(std::uint32_t{});
    case 8: return f(std::uint64_t{});
    case 16:
      if constexpr (MaxBytes >= 16) return f(uint4{});
      break;
    default: break;
  }
  throw Error(ErrorKind::Internal,
              std::string(kernel) + ": no kernel for units of " + std::to_string(bytes) + " bytes");
}

}  // namespace kwb
