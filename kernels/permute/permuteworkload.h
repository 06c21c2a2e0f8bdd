#pragma once

#include <functional>
#include <string>
#include <vector>

#include "kernels/permute/permuteplan.h"
#include "kernels/workload.h"

namespace kwb::permute {

// Enqueues one permutation from the first buffer to the second.
using PermuteLauncher = std::function<void(const void* src, void* dst, cudaStream_t)>;

// One tensor permuted into another, by whichever kernel the launcher holds; verified element by
// element against the permutation as the user gave it. The source starts `offset` elements into
// its buffer, as a view into a larger tensor does.
class PermuteWorkload final : public Workload {
 public:
  PermuteWorkload(Permutation original, DType dtype, std::int64_t offset, PermuteLauncher launch,
                  ParamSet derived);

  std::vector<BufferSpec> buffers() const override;
  std::uint64_t bytesMoved() const override;
  std::optional<double> flops() const override { return 0.0; }  // data movement only
  ParamSet derived() const override { return derived_; }
  double tolerance() const override { return 0; }  // bytes move unchanged
  void enqueue(std::span<void* const> buffers, cudaStream_t stream) const override;
  void reference(std::span<const HostArray> inputs, std::size_t output, std::size_t begin,
                 std::span<double> out) const override;

 private:
  Permutation original_;
  SourceOffsets sourceOffsets_;
  DType dtype_;
  std::int64_t offset_;
  PermuteLauncher launch_;
  ParamSet derived_;
};

// "64,512,512" for result tables and messages.
std::string listText(const std::vector<std::int64_t>& items);
std::string listText(const std::vector<int>& items);

}  // namespace kwb::permute
