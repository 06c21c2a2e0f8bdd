#include "measure/timer.h"

#include <algorithm>
#include <chrono>

#include "core/error.h"
#include "core/stats.h"
#include "kernels/cudacheck.h"

namespace kwb {
namespace {

// Enough to keep the blocked stream's queue short of the depth at which launches would block.
constexpr std::size_t kMaxBatch = 32;
constexpr std::size_t kMaxQueued = 512;  // operations a held stream is given at most
constexpr double kWarmupSeconds = 0.02;

// Empty event pairs a batch of `samples` launches times after them.
std::size_t emptyPairsFor(std::size_t samples) {
  return std::max<std::size_t>(1, samples / 4);
}

// The samples less the events' own time, never below zero.
std::vector<double> lessOverhead(const std::vector<double>& samples, double overhead) {
  std::vector<double> out(samples.size());
  std::transform(samples.begin(), samples.end(), out.begin(),
                 [&](double t) { return std::max(t - overhead, 0.0); });
  return out;
}

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

std::vector<bool> batchSlots(std::size_t samples) {
  // Among the samples, not after them: a run of pairs at a batch's end read 1.31 us where pairs
  // among the samples read 1.57 to 1.63 (21 MB read after the flush, H100), leaving that much
  // more of the events' time in every sample.
  const std::size_t empty = emptyPairsFor(samples);
  std::vector<bool> slots(samples + empty, true);
  for (std::size_t k = 0; k < empty; ++k) slots[(k + 1) * samples / empty + k] = false;
  return slots;
}

Timer::Timer(cudaStream_t stream, std::int64_t l2Bytes) : stream_(stream), flusher_(l2Bytes) {
  events_.resize(2 * (kMaxBatch + emptyPairsFor(kMaxBatch)));
  for (auto& event : events_) KWB_CUDA_CHECK(cudaEventCreate(&event));
  // Loads the flush's kernel now: loaded lazily inside a held batch, its first launch would wait
  // for the blocking kernel, and the batch would be dropped when the blocker times out.
  flusher_.enqueue(stream_);
  KWB_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

Timer::~Timer() {
  for (auto event : events_) cudaEventDestroy(event);
}

Timer::Batch Timer::runBatch(const Launch& launch, TimingMode mode, std::size_t count, bool hold) {
  const std::vector<bool> isSample = batchSlots(count);
  const std::size_t pairs = isSample.size();
  if (hold) blocker_.block(stream_);
  for (std::size_t i = 0; i < pairs; ++i) {
    if (mode == TimingMode::Cold) flusher_.enqueue(stream_);
    KWB_CUDA_CHECK(cudaEventRecord(events_[2 * i], stream_));
    if (isSample[i]) launch(stream_);
    KWB_CUDA_CHECK(cudaEventRecord(events_[2 * i + 1], stream_));
  }
  if (hold) blocker_.release();
  KWB_CUDA_CHECK(cudaStreamSynchronize(stream_));

  Batch batch;
  if (hold && blocker_.timedOut()) return batch;  // host gaps may be inside: drop the batch
  for (std::size_t i = 0; i < pairs; ++i) {
    float ms = 0;
    KWB_CUDA_CHECK(cudaEventElapsedTime(&ms, events_[2 * i], events_[2 * i + 1]));
    (isSample[i] ? batch.samples : batch.emptyPairs).push_back(ms * 1e-3);
  }
  return batch;
}

TimingOutcome Timer::measure(const Launch& launch, const TimingOptions& options,
                             const std::atomic<bool>* cancel, const BatchProbe& probe,
                             std::size_t launchesPerCall) {
  const std::size_t minSamples = std::max<std::size_t>(options.minSamples, 1);
  const std::size_t maxSamples = std::max(options.maxSamples, minSamples);
  // Each sample queues its launches, two events and, cold, the flush's two operations; each
  // empty pair the same less the launches.
  const std::size_t pairOps = 2 + (options.mode == TimingMode::Cold ? 2 : 0);
  const auto queued = [&](std::size_t samples) {
    return samples * (launchesPerCall + pairOps) + emptyPairsFor(samples) * pairOps;
  };
  const bool hold = queued(1) <= kMaxQueued;
  std::size_t maxBatch = 1;
  while (hold && maxBatch < kMaxBatch && queued(maxBatch + 1) <= kMaxQueued) ++maxBatch;

  // Warm-up: loads the module, then runs long enough for clocks and caches to settle.
  auto warmStart = Clock::now();
  std::size_t warmups = 0;
  do {
    launch(stream_);
    KWB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    ++warmups;
  } while (warmups < 3 || (secondsSince(warmStart) < kWarmupSeconds && warmups < 1000));
  const double perLaunch = secondsSince(warmStart) / static_cast<double>(warmups);

  TimingOutcome outcome;
  outcome.backToBack = hold;
  std::vector<double> raw;  // event times, overhead included
  std::vector<double> emptyPairs;
  int droppedBatches = 0;
  auto start = Clock::now();
  while (true) {
    if (cancel && cancel->load()) throw Error(ErrorKind::Cancelled, "cancelled");
    const double left = options.budgetSeconds - secondsSince(start);
    std::size_t batch = left > 0 ? static_cast<std::size_t>(left / std::max(perLaunch, 1e-6)) : 0;
    batch = std::clamp<std::size_t>(batch, 1, maxBatch);
    if (outcome.samples.size() < minSamples)
      batch = std::max(batch, std::min(minSamples - outcome.samples.size(), maxBatch));
    batch = std::min(batch, maxSamples - outcome.samples.size());

    Batch times = runBatch(launch, options.mode, batch, hold);
    if (times.samples.empty() && ++droppedBatches > 2)
      throw Error(ErrorKind::Internal,
                  "timing batches keep outliving the stream blocker's timeout; the host is too "
                  "slow to enqueue them");
    if (probe && probe())
      for (std::size_t k = 0; k < times.samples.size(); ++k)
        outcome.throttledSamples.push_back(raw.size() + k);
    raw.insert(raw.end(), times.samples.begin(), times.samples.end());
    emptyPairs.insert(emptyPairs.end(), times.emptyPairs.begin(), times.emptyPairs.end());
    outcome.eventOverhead = emptyPairs.empty() ? 0 : summarize(emptyPairs).median;
    outcome.samples = lessOverhead(raw, outcome.eventOverhead);

    const std::size_t n = outcome.samples.size();
    if (n >= minSamples && summarize(outcome.samples).relStddev() < options.targetRelStddev) {
      outcome.converged = true;
      break;
    }
    if (n >= maxSamples || (n >= minSamples && secondsSince(start) >= options.budgetSeconds)) break;
  }
  return outcome;
}

}  // namespace kwb
