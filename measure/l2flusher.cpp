#include "measure/l2flusher.h"

#include <algorithm>

#include "kernels/cudacheck.h"

namespace kwb {

L2Flusher::L2Flusher(std::int64_t l2Bytes)
    : buffer_(static_cast<std::size_t>(std::max<std::int64_t>(2 * l2Bytes, 1 << 20))) {}

void L2Flusher::enqueue(cudaStream_t stream) const {
  KWB_CUDA_CHECK(cudaMemsetAsync(buffer_.data(), 0, buffer_.bytes(), stream));
}

}  // namespace kwb
