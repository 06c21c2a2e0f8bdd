#pragma once

#include <cuda_runtime.h>

namespace kwb {

// Holds a stream with a spinning kernel while the host enqueues a batch of timed launches, so
// the GPU runs them back to back and the events time kernels, not the host's launch rate. The
// spinner gives up after a timeout of its own so that a stuck host can never hang the GPU.
class StreamBlocker {
 public:
  StreamBlocker();
  ~StreamBlocker();
  StreamBlocker(const StreamBlocker&) = delete;
  StreamBlocker& operator=(const StreamBlocker&) = delete;

  void block(cudaStream_t stream);
  void release();
  // True when the last block() ended by its timeout instead of release(): that batch's first
  // samples may include host gaps.
  bool timedOut() const;

 private:
  volatile int* flags_ = nullptr;  // [0] release flag, [1] timed-out flag; mapped host memory
  int* deviceFlags_ = nullptr;
};

}  // namespace kwb
