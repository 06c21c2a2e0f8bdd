#pragma once

#include "kernels/workload.h"

namespace kwb {

// What both copy variants share: one input, one output of the same size, bytes = 2 x size,
// and an exact reference (a copy must reproduce every bit).
class CopyWorkload : public Workload {
 public:
  CopyWorkload(DType dtype, std::size_t count) : dtype_(dtype), count_(count) {}

  std::vector<BufferSpec> buffers() const override;
  std::uint64_t bytesMoved() const override;
  std::optional<double> flops() const override { return 0.0; }  // data movement only
  double tolerance() const override { return 0.0; }
  void reference(std::span<const HostArray> inputs, std::size_t output, std::size_t begin,
                 std::span<double> out) const override;

 protected:
  DType dtype() const { return dtype_; }
  std::size_t count() const { return count_; }
  std::size_t byteCount() const { return count_ * sizeOf(dtype_); }

 private:
  DType dtype_;
  std::size_t count_;
};

}  // namespace kwb
