#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/protocol.h"

namespace kwb {

struct PoolEvents {
  // A point's run, from the worker of device `device`.
  std::function<void(std::size_t index, int device, const RunResult& run)> result;
  // A point that did not run: refused by its worker, or lost with it.
  std::function<void(std::size_t index, int device, const std::string& sentence)> failed;
  // A worker ended before the points did; the others go on.
  std::function<void(int device, const std::string& sentence)> workerEnded;
};

// Each worker's copy ceiling. `given[k]`, where the history holds it, goes with worker k's requests
// so that it measures none, where its hello lists the option (a worker of an older build would
// refuse it). A worker given none measures its own before its first run; the first run back says
// it, and `measured` is told, to keep it for the next time.
struct PoolCeilings {
  std::vector<std::optional<CopyCeiling>> given;
  std::function<void(int device, const CopyCeiling& ceiling)> measured;
};

// One worker per device, `commands[k]` starting the worker of `devices[k]` (`kwb --no-store
// --device D worker`), kept for as many runs as the pool lives (a tuning's batches). Each point
// is the kernel with that point's parameters, run once; a worker takes the next point as it
// finishes one, so faster devices take more. A worker that ends takes only the point it held
// with it, and is not started again.
class DevicePool {
 public:
  DevicePool(const std::vector<std::vector<std::string>>& commands, const std::vector<int>& devices,
             PoolCeilings ceilings = {});
  ~DevicePool();  // asks the workers to end
  DevicePool(const DevicePool&) = delete;
  DevicePool& operator=(const DevicePool&) = delete;

  // Runs the points and returns how many ran. Error(Usage) when a worker speaks another protocol
  // version, Error(Internal) when every worker has ended with points left, Error(Cancelled) when
  // *cancel turns true (the workers are asked to stop first).
  std::size_t run(const protocol::Kernel& kernel, const std::vector<RawParams>& points,
                  const MeasureSettings& options, const std::atomic<bool>* cancel,
                  const PoolEvents& events);

 private:
  struct Slot;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::function<void(int device, const CopyCeiling& ceiling)> measured_;
  std::chrono::steady_clock::time_point started_;
  std::size_t runs_ = 0;  // point ids differ from one run to the next
};

// A pool for one run.
std::size_t runOnDevices(const std::vector<std::vector<std::string>>& commands,
                         const std::vector<int>& devices, const protocol::Kernel& kernel,
                         const std::vector<RawParams>& points, const MeasureSettings& options,
                         const std::atomic<bool>* cancel, const PoolEvents& events,
                         PoolCeilings ceilings = {});

}  // namespace kwb
