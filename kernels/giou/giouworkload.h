#pragma once

#include <cstdint>
#include <vector>

#include "kernels/giou/gioufused.h"
#include "kernels/giou/giouproblem.h"
#include "kernels/workload.h"

namespace kwb::giou {

enum class GiouKind { PerSample, Concat, Padded, Fused, FusedConditional, FusedForwardBackward };

struct GiouConfig {
  GiouKind kind = GiouKind::Fused;
  GiouProblem problem;
  int block = 256;
  bool graph = false;  // the unfused kinds: one captured CUDA graph a call
  // The fused kinds' launch, all but its buffers.
  FusedLaunch fused;
};

// The GIoU loss of a padded batch by one of six ways; the loss (and the fused forward-backward
// kind's gradient) checked against the CPU reference in double precision.
class GiouWorkload final : public Workload {
 public:
  GiouWorkload(GiouConfig config, ParamSet derived);
  ~GiouWorkload() override;
  GiouWorkload(const GiouWorkload&) = delete;
  GiouWorkload& operator=(const GiouWorkload&) = delete;

  std::vector<BufferSpec> buffers() const override;
  std::uint64_t bytesMoved() const override;
  std::optional<double> flops() const override;
  ParamSet derived() const override { return derived_; }
  double tolerance() const override;
  std::size_t launchesPerCall() const override;
  std::size_t kernelsPerCall() const override { return kernels_; }
  std::optional<HostArray> generateInput(std::size_t index, std::uint64_t seed) const override;
  void enqueue(std::span<void* const> buffers, cudaStream_t stream) const override;
  void reference(std::span<const HostArray> inputs, std::size_t output, std::size_t begin,
                 std::span<double> out) const override;

 private:
  // Where each buffer sits in buffers(); -1 where this kind has none.
  struct Slots {
    int preds = 0, targets = 1, counts = -1, offsets = -1, loss = -1, grad = -1, scratch = -1;
  };

  void issue(std::span<void* const> buffers, cudaStream_t stream) const;
  void issueUnfused(std::span<void* const> buffers, cudaStream_t stream) const;
  std::size_t scratchFloats() const;
  std::size_t countKernels() const;

  GiouConfig config_;
  ParamSet derived_;
  Slots slots_;
  std::size_t kernels_ = 0;
  // The captured call and the buffers it was captured with.
  mutable cudaGraphExec_t graph_ = nullptr;
  mutable std::vector<void*> graphBuffers_;
};

}  // namespace kwb::giou
