#include "measure/workloadbuffers.h"

#include <string>

#include "core/error.h"
#include "kernels/cudacheck.h"
#include "measure/randomfill.h"

namespace kwb {

std::vector<DeviceBuffer> workloadBuffers(const Workload& workload, std::uint64_t seed,
                                          cudaStream_t stream) {
  std::vector<DeviceBuffer> buffers;
  const auto specs = workload.buffers();
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const std::size_t bytes = specs[i].count * sizeOf(specs[i].dtype);
    void* data = buffers.emplace_back(bytes).data();
    if (specs[i].output) {
      KWB_CUDA_CHECK(cudaMemsetAsync(data, 0xff, bytes, stream));  // poison
    } else if (specs[i].scratch) {
      KWB_CUDA_CHECK(cudaMemsetAsync(data, 0, bytes, stream));
    } else if (auto host = workload.generateInput(i, seed + i)) {
      if (host->byteSize() != bytes)
        throw Error(ErrorKind::Internal, "generated input " + specs[i].name + " has " +
                                             std::to_string(host->byteSize()) + " bytes, not " +
                                             std::to_string(bytes));
      KWB_CUDA_CHECK(
          cudaMemcpyAsync(data, host->data(), host->byteSize(), cudaMemcpyHostToDevice, stream));
      KWB_CUDA_CHECK(cudaStreamSynchronize(stream));  // before `host` goes
    } else {
      fillRandom(data, specs[i].dtype, specs[i].count, seed + i, stream);
    }
  }
  KWB_CUDA_CHECK(cudaStreamSynchronize(stream));
  return buffers;
}

}  // namespace kwb
