// The copy family: the practical bandwidth ceiling that every other family is compared against.
#include <memory>

#include "core/error.h"
#include "kernels/copy/copyworkload.h"
#include "kernels/copy/vectorizedcopy.h"
#include "kernels/cudacheck.h"
#include "kernels/launchgeometry.h"
#include "kernels/registry.h"

namespace kwb {
namespace {

std::vector<ParamSpec> problemParams() {
  return {
      integerParam("n", ParamRole::Problem, 1, std::int64_t{1} << 34, "16777216", "elements",
                   "number of elements to copy"),
      choiceParam("dtype", ParamRole::Problem, {"f32", "f16", "bf16", "f64", "u8"}, "f32", "",
                  "element type; a copy moves its bytes unchanged"),
  };
}

DType dtypeOf(const ParamSet& params) {
  return *parseDType(params.get("dtype"));
}

class MemcpyWorkload final : public CopyWorkload {
 public:
  using CopyWorkload::CopyWorkload;
  void enqueue(std::span<void* const> buffers, cudaStream_t stream) const override {
    KWB_CUDA_CHECK(
        cudaMemcpyAsync(buffers[1], buffers[0], byteCount(), cudaMemcpyDeviceToDevice, stream));
  }
};

class MemcpyVariant final : public Variant {
 public:
  MemcpyVariant()
      : Variant({"copy", "memcpy", "cudaMemcpyAsync device to device",
                 "The driver's own copy: the practical bandwidth ceiling of the device. Every "
                 "bandwidth in the workbench is shown as a fraction of the best copy measured.",
                 problemParams(), "n"}) {}

  std::unique_ptr<Workload> create(const ParamSet& params, const DeviceInfo&) const override {
    return std::make_unique<MemcpyWorkload>(dtypeOf(params), params.getInt("n"));
  }
};

class VectorizedWorkload final : public CopyWorkload {
 public:
  VectorizedWorkload(DType dtype, std::size_t count, int vectorBytes, int grid, int block,
                     const DeviceInfo& device)
      : CopyWorkload(dtype, count),
        vectorBytes_(vectorBytes),
        grid_(grid),
        block_(block),
        derived_(describeGrid(grid, block, device)) {}

  ParamSet derived() const override { return derived_; }
  void enqueue(std::span<void* const> buffers, cudaStream_t stream) const override {
    launchVectorizedCopy(buffers[1], buffers[0], count(), static_cast<int>(sizeOf(dtype())),
                         vectorBytes_, grid_, block_, stream);
  }

 private:
  int vectorBytes_;
  int grid_;
  int block_;
  ParamSet derived_;
};

class VectorizedVariant final : public Variant {
 public:
  VectorizedVariant() : Variant(makeInfo()) {}

  void check(const ParamSet& params) const override {
    const auto elementBytes = static_cast<std::int64_t>(sizeOf(dtypeOf(params)));
    const std::int64_t vectorBytes = params.getInt("vector_bytes");
    if (vectorBytes < elementBytes)
      throw paramError("vector_bytes", std::to_string(vectorBytes) + " is smaller than one " +
                                           params.get("dtype") + " element (" +
                                           std::to_string(elementBytes) + " bytes); allowed: " +
                                           std::to_string(elementBytes) + "..16, powers of 2");
  }

  std::unique_ptr<Workload> create(const ParamSet& params,
                                   const DeviceInfo& device) const override {
    const DType dtype = dtypeOf(params);
    const auto count = static_cast<std::size_t>(params.getInt("n"));
    const int vectorBytes = static_cast<int>(params.getInt("vector_bytes"));
    const int block = static_cast<int>(params.getInt("block_size"));
    const std::size_t vectors = count * sizeOf(dtype) / vectorBytes;
    const int grid = gridForWaves(std::max<std::size_t>(vectors, 1), block,
                                  static_cast<int>(params.getInt("waves")), device);
    return std::make_unique<VectorizedWorkload>(dtype, count, vectorBytes, grid, block, device);
  }

 private:
  static VariantInfo makeInfo() {
    auto params = problemParams();
    params.push_back(integerParam("block_size", ParamRole::Launch, 32, 1024, "256", "threads",
                                  "threads per block", 32));
    params.push_back(integerParam("waves", ParamRole::Launch, 1, 64, "32", "waves",
                                  "grid size in full waves of the device (SMs x resident blocks)"));
    params.push_back(choiceParam("vector_bytes", ParamRole::Launch, {"1", "2", "4", "8", "16"},
                                 "16", "bytes", "bytes each thread loads and stores at once"));
    return {
        "copy",
        "vectorized",
        "grid-stride copy kernel with vector loads",
        "A copy kernel of our own: wide (up to 16-byte) loads and stores in a grid-stride loop, "
        "with the grid sized in waves of the device. Sweep vector_bytes to see why wide "
        "accesses matter, and waves to see how few blocks keep the memory system busy.",
        std::move(params),
        "n"};
  }
};

}  // namespace

void registerCopyFamily(Registry& registry) {
  registry.addFamily("copy", "device-to-device copies: the bandwidth ceiling");
  registry.addVariant(std::make_unique<MemcpyVariant>());
  registry.addVariant(std::make_unique<VectorizedVariant>());
}

}  // namespace kwb
