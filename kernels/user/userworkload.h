#pragma once

#include <memory>
#include <vector>

#include "kernels/user/kernelfile.h"
#include "kernels/user/modulecache.h"
#include "kernels/workload.h"

namespace kwb {

// One configuration of a user's kernel file, compiled and loaded: its launches with their
// geometry and arguments worked out once. Where the file implements a built-in family, that
// family's workload supplies the buffers, inputs, bytes and CPU reference, so the kernel is
// checked exactly as the built-in variants are; otherwise the spec's buffers are used and a
// reference kernel of the file, run on the same inputs, gives the right answer.
class UserWorkload : public Workload {
 public:
  UserWorkload(std::shared_ptr<const KernelFile> file, const ParamSet& params,
               const DeviceInfo& device, ModuleUse module, std::unique_ptr<Workload> builtIn);

  std::vector<BufferSpec> buffers() const override { return buffers_; }
  std::uint64_t bytesMoved() const override { return bytes_; }
  std::optional<double> flops() const override { return flops_; }
  ParamSet derived() const override { return derived_; }
  double tolerance() const override;
  std::size_t launchesPerCall() const override { return launches_.size(); }
  bool checked() const override { return !file_->spec.unchecked; }
  std::optional<HostArray> generateInput(std::size_t index, std::uint64_t seed) const override;
  void beforeCheckedRun(std::span<void* const> buffers, cudaStream_t stream) const override;
  void enqueue(std::span<void* const> buffers, cudaStream_t stream) const override;
  void reference(std::span<const HostArray> inputs, std::size_t output, std::size_t begin,
                 std::span<double> out) const override;

 private:
  static constexpr std::size_t kMaxArgs = 32;
  struct Arg {
    int buffer = -1;  // index into buffers(), or -1 for a value
    std::int64_t value = 0;
    std::size_t size = 8;
  };
  struct Launch {
    cudaKernel_t kernel = nullptr;
    dim3 grid;
    dim3 block;
    std::size_t sharedBytes = 0;
    int registers = 0;  // per thread, as compiled
    std::vector<Arg> args;
  };
  Launch prepareLaunch(const KernelLaunchSpec& spec, const std::string& where,
                       const std::map<std::string, double>& values,
                       const std::vector<int>& bufferIndex);
  void launch(const Launch& launch, std::span<void* const> buffers, cudaStream_t stream) const;
  std::size_t bytesOf(int buffer) const;

  std::shared_ptr<const KernelFile> file_;
  DeviceInfo device_;
  std::shared_ptr<const LoadedModule> module_;
  std::unique_ptr<Workload> builtIn_;
  std::vector<BufferSpec> buffers_;
  std::vector<BufferFill> fills_;                   // per buffers() entry
  std::vector<std::pair<int, int>> initialCopies_;  // (initial values, working buffer)
  std::vector<int> zeroedEachCall_;                 // outputs set to zeros as each call starts
  std::vector<Launch> launches_;
  std::optional<Launch> reference_;
  mutable std::vector<HostArray> referenceOutputs_;
  std::uint64_t bytes_ = 0;
  std::optional<double> flops_;  // the spec's, else the implemented family's
  ParamSet derived_;
};

}  // namespace kwb
