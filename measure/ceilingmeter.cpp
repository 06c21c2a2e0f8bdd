// Runner::measureCeilings: the micro-kernels of measure/ceilingkernels.cu, timed.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "core/ceilings.h"
#include "core/error.h"
#include "core/timeformat.h"
#include "kernels/cudacheck.h"
#include "measure/ceilingkernels.h"
#include "measure/devicebuffer.h"
#include "measure/devicequery.h"
#include "measure/gpustatesampler.h"
#include "measure/runner.h"

namespace kwb {
namespace {

constexpr double kLaunchSeconds = 3e-3;  // long enough that a launch's own cost is noise
constexpr int kTrials = 10;

// Times launches on a stream with events, one pair a launch.
class LaunchClock {
 public:
  explicit LaunchClock(cudaStream_t stream) : stream_(stream) {
    for (auto& e : events_) KWB_CUDA_CHECK(cudaEventCreate(&e));
  }
  ~LaunchClock() {
    for (auto& e : events_) cudaEventDestroy(e);
  }
  LaunchClock(const LaunchClock&) = delete;
  LaunchClock& operator=(const LaunchClock&) = delete;
  void start(int trial) { KWB_CUDA_CHECK(cudaEventRecord(events_[2 * trial], stream_)); }
  void stop(int trial) { KWB_CUDA_CHECK(cudaEventRecord(events_[2 * trial + 1], stream_)); }
  double seconds(int trial) const {
    float ms = 0;
    KWB_CUDA_CHECK(cudaEventElapsedTime(&ms, events_[2 * trial], events_[2 * trial + 1]));
    return ms * 1e-3;
  }

 private:
  cudaStream_t stream_;
  std::array<cudaEvent_t, 2 * kTrials> events_{};
};

}  // namespace

std::vector<DeviceCeiling> Runner::measureCeilings(const std::atomic<bool>* cancel) {
  const auto cancelled = [&] {
    if (cancel && cancel->load()) throw Error(ErrorKind::Cancelled, "cancelled");
  };
  std::vector<DeviceCeiling> out;
  DeviceBuffer scratch(ceilingScratchBytes(device_));
  KWB_CUDA_CHECK(cudaMemsetAsync(scratch.data(), 0, scratch.bytes(), stream_));
  LaunchClock clock(stream_);

  // DRAM: a copy writes as much as it reads, and the turnarounds cost; a kernel that mostly reads
  // gets more. The roof is the faster of the copy and a read, each of a buffer far past L2.
  const CopyCeiling copy = measureCopyCeiling(cancel);
  std::size_t readBytes = std::size_t{1} << 30;
  while (readBytes > freeDeviceMemory() / 2 && readBytes > (std::size_t{1} << 24)) readBytes /= 2;
  double read = 0;
  {
    DeviceBuffer buffer(readBytes);
    KWB_CUDA_CHECK(cudaMemsetAsync(buffer.data(), 0, readBytes, stream_));
    auto* results = static_cast<float*>(scratch.data());
    launchStreamRead(device_, buffer.data(), readBytes, results, stream_);  // warm-up
    for (int trial = 0; trial < kTrials; ++trial) {
      clock.start(trial);
      launchStreamRead(device_, buffer.data(), readBytes, results, stream_);
      clock.stop(trial);
    }
    KWB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    for (int trial = 0; trial < kTrials; ++trial)
      read = std::max(read, static_cast<double>(readBytes) / clock.seconds(trial));
  }
  out.push_back({"dram", std::max(copy.bandwidth, read), 0, nowUnixMs()});

  for (const CeilingSpec& spec : kCeilings) {
    if (spec.name == "dram") continue;
    if (spec.name == "bf16" && device_.ccMajor < 8) continue;  // no bfloat16 arithmetic
    cancelled();
    // Calibrate: a launch of a few rounds, then as many as fill kLaunchSeconds.
    int iterations = spec.name == "l2" ? 2 : 256;
    clock.start(0);
    launchCeilingKernel(spec.name, device_, scratch.data(), iterations, stream_);
    clock.stop(0);
    KWB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    const double first = std::max(clock.seconds(0), 1e-6);
    iterations = static_cast<int>(std::clamp(iterations * kLaunchSeconds / first, 1.0, 1e7));
    launchCeilingKernel(spec.name, device_, scratch.data(), iterations, stream_);  // warm-up
    double work = 0;
    for (int trial = 0; trial < kTrials; ++trial) {
      clock.start(trial);
      work = launchCeilingKernel(spec.name, device_, scratch.data(), iterations, stream_);
      clock.stop(trial);
    }
    // The clock while the trials run: NVML reads it from the host meanwhile; the clock kernel
    // can only follow them on the stream.
    std::this_thread::sleep_for(std::chrono::duration<double>(kTrials * kLaunchSeconds / 2));
    const GpuStateSample state = stateSampler_->sample();
    KWB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    double best = INFINITY;
    for (int trial = 0; trial < kTrials; ++trial) best = std::min(best, clock.seconds(trial));
    out.push_back({std::string(spec.name), work / best,
                   std::isfinite(state.smClockMhz) ? state.smClockMhz : 0, nowUnixMs()});
  }
  return out;
}

}  // namespace kwb
