#pragma once

#include <cstdint>
#include <string>

#include <cuda_runtime.h>

#include "measure/devicebuffer.h"

namespace kwb {

// Empties L2 of a kernel's data before a cold sample: writes a buffer twice the L2's size (one
// L2-sized pass leaves lines behind on chips whose L2 is split into partitions), then reads it
// back, so that no dirty line of the flush is written back while the timed kernel runs. A write
// alone added the write-back of up to an L2 of dirty lines to the kernel: 1.3 us on a 4 MB copy,
// 6 us on a 64 MB one of 45 us (H100). The read is what a profiler's cache control does before each
// pass.
class L2Flusher {
 public:
  explicit L2Flusher(std::int64_t l2Bytes);
  // Enqueues the write and the read: two operations on the stream.
  void enqueue(cudaStream_t stream) const;
  // The mangled name of the read's kernel, so that traces can leave it out.
  static const std::string& kernelSymbol();
  std::size_t bytes() const { return buffer_.bytes(); }

 private:
  DeviceBuffer buffer_;
};

}  // namespace kwb
