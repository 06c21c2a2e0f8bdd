#pragma once

#include <cstdint>

#include <cuda_runtime.h>

namespace kwb::testing {

// A kernel that runs for a known time (by the GPU's global timer): ground truth for the timer.
void launchSpin(std::uint64_t nanoseconds, cudaStream_t stream);

}  // namespace kwb::testing
