#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <vector>

#include <cuda_runtime.h>

#include "core/runresult.h"
#include "measure/l2flusher.h"
#include "measure/streamblocker.h"

namespace kwb {

struct TimingOptions {
  TimingMode mode = TimingMode::Cold;
  std::size_t minSamples = 10;
  std::size_t maxSamples = 1000;
  double targetRelStddev = 0.005;  // stop once the samples are this steady...
  double budgetSeconds = 1.0;      // ...or once this much wall time is spent on timing
};

struct TimingOutcome {
  std::vector<double> samples;  // seconds, one per launch
  bool converged = false;
  std::vector<std::size_t> throttledSamples;  // samples of batches the probe found throttled
  // False when a call launches more than a held stream can queue: each call was then timed on
  // its own, host launch gaps included.
  bool backToBack = true;
  // The median time of an event pair with nothing between them, enqueued as the samples were
  // (after the same flush): already subtracted from every sample.
  double eventOverhead = 0;
};

// A batch's event pairs in order: true where one times a launch (`samples` of them), false
// where one is empty (a quarter as many, at least one), each empty one after an equal share of
// the samples, the last pair empty.
std::vector<bool> batchSlots(std::size_t samples);

// Times one enqueued operation with CUDA events around each launch: warm-up first, then
// batches held back by a StreamBlocker so that launches run back to back. Cold samples flush
// L2 before each launch; hot samples do not. A call of many launches (`launchesPerCall`) gets
// batches short enough for the held stream's queue, or none where one call alone overfills it.
// An event pair with nothing between its events takes about 1.6 us of the GPU's time (H100), so
// each batch also times empty pairs among its samples, and the samples are the events' times less
// the median empty pair: the kernel's own time (bench/fidelity.py holds it against Nsight
// Compute's).
class Timer {
 public:
  Timer(cudaStream_t stream, std::int64_t l2Bytes);
  ~Timer();
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

  using Launch = std::function<void(cudaStream_t)>;
  // Called after each batch: whether the GPU's clocks were held down (reads its state).
  using BatchProbe = std::function<bool()>;
  // Throws Error(Cancelled) when *cancel becomes true between batches.
  TimingOutcome measure(const Launch& launch, const TimingOptions& options,
                        const std::atomic<bool>* cancel = nullptr, const BatchProbe& probe = {},
                        std::size_t launchesPerCall = 1);

  // Enqueues one L2 flush, as before a cold sample.
  void flushL2() { flusher_.enqueue(stream_); }

 private:
  struct Batch {
    std::vector<double> samples;     // event times of the launches
    std::vector<double> emptyPairs;  // event times with nothing between the events
  };
  Batch runBatch(const Launch& launch, TimingMode mode, std::size_t count, bool hold);

  cudaStream_t stream_;
  L2Flusher flusher_;
  StreamBlocker blocker_;
  std::vector<cudaEvent_t> events_;
};

}  // namespace kwb
