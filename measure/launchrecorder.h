#pragma once

#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <cupti_callbacks.h>

#include "core/deviceinfo.h"
#include "core/waves.h"

namespace kwb {

struct KernelLaunch {
  std::string name;  // shortKernelName of the launched symbol
  const void* function = nullptr;
  dim3 grid;
  dim3 block;
  std::size_t sharedBytes = 0;
};

// Records kernel launches through CUPTI's runtime callbacks while it lives: the auto ranges of
// the range profiler carry only numbers, and the launches give them names and the occupancy
// API its inputs. One per process at a time (CUPTI allows one subscriber).
class LaunchRecorder {
 public:
  LaunchRecorder();  // throws CuptiError (another subscriber, say)
  ~LaunchRecorder();
  LaunchRecorder(const LaunchRecorder&) = delete;
  LaunchRecorder& operator=(const LaunchRecorder&) = delete;

  std::vector<KernelLaunch> launches() const;

 private:
  static void CUPTIAPI onCallback(void* self, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                                  const void* data);

  CUpti_SubscriberHandle subscriber_ = nullptr;
  mutable std::mutex mutex_;
  std::vector<KernelLaunch> launches_;
};

// Theoretical occupancy of a launch in percent of the SM's warp slots, from the occupancy API.
double theoreticalOccupancy(const KernelLaunch& launch, int maxThreadsPerSm);

// A launch as waves over the device's SMs: the occupancy API's blocks per SM, and which of the
// SM's threads, blocks, registers or shared memory runs out first.
WaveLaunch waveLaunch(const KernelLaunch& launch, const DeviceInfo& device);

// The distinct launches of a call (kernel, grid, block and shared memory), in order, as waves;
// none where the call made more than `most` distinct ones.
std::vector<WaveLaunch> waveLaunches(const std::vector<KernelLaunch>& launches,
                                     const DeviceInfo& device, std::size_t most);

}  // namespace kwb
