#include "measure/devicebuffer.h"

#include <utility>

#include <cuda_runtime.h>

#include "kernels/cudacheck.h"

namespace kwb {

DeviceBuffer::DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
  // A zero-byte problem still gets a valid pointer, so kernels never see null.
  KWB_CUDA_CHECK(cudaMalloc(&data_, bytes == 0 ? 1 : bytes));
}

DeviceBuffer::~DeviceBuffer() {
  if (data_) cudaFree(data_);  // nothing to report from a destructor
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    if (data_) cudaFree(data_);
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

}  // namespace kwb
