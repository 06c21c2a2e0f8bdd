#include "measure/clocksampler.h"

#include "kernels/cudacheck.h"

namespace kwb {
namespace {

// About a quarter of a millisecond at 2 GHz: long against the nanosecond timer's granularity,
// short against a timing batch.
constexpr long long kCycles = 500000;

__global__ void clockKernel(unsigned long long* counts) {
  unsigned long long startNs, endNs;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(startNs));
  const long long start = clock64();
  long long now = start;
  while (now - start < kCycles) now = clock64();
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(endNs));
  counts[0] = static_cast<unsigned long long>(now - start);
  counts[1] = endNs - startNs;
}

}  // namespace

ClockSampler::ClockSampler(const DeviceInfo& device, cudaStream_t stream) : stream_(stream) {
  int peakKhz = 0;
  KWB_CUDA_CHECK(cudaDeviceGetAttribute(&peakKhz, cudaDevAttrClockRate, device.ordinal));
  peakMhz_ = peakKhz / 1000.0;
  KWB_CUDA_CHECK(cudaHostAlloc(&counts_, 2 * sizeof(unsigned long long), cudaHostAllocMapped));
  KWB_CUDA_CHECK(cudaHostGetDevicePointer(&deviceCounts_, counts_, 0));
}

ClockSampler::~ClockSampler() {
  cudaFreeHost(counts_);
}

GpuStateSample ClockSampler::sample() {
  clockKernel<<<1, 1, 0, stream_>>>(deviceCounts_);
  KWB_CHECK_LAUNCH("clockKernel");
  KWB_CUDA_CHECK(cudaStreamSynchronize(stream_));
  GpuStateSample s;
  if (counts_[1] > 0) {
    s.smClockMhz = static_cast<double>(counts_[0]) * 1e3 / static_cast<double>(counts_[1]);
    s.throttled = s.smClockMhz < 0.9 * peakMhz_;
  }
  return s;
}

}  // namespace kwb
