#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "measure/devicebuffer.h"

namespace kwb {

// Evicts a kernel's data from L2 before a cold sample by writing a buffer twice the L2's size:
// one L2-sized pass leaves lines behind on chips whose L2 is split into partitions.
class L2Flusher {
 public:
  explicit L2Flusher(std::int64_t l2Bytes);
  void enqueue(cudaStream_t stream) const;
  // As enqueue(), then reads the buffer back so that no dirty line is left to be written back
  // during the next kernel: what a profiler's cache control does before each pass, so that
  // counters (DRAM writes above all) describe the kernel alone.
  void enqueueClean(cudaStream_t stream) const;
  std::size_t bytes() const { return buffer_.bytes(); }

 private:
  DeviceBuffer buffer_;
};

}  // namespace kwb
