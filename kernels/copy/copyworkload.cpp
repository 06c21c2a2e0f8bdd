#include "kernels/copy/copyworkload.h"

namespace kwb {

std::vector<BufferSpec> CopyWorkload::buffers() const {
  return {{"src", dtype_, count_, false}, {"dst", dtype_, count_, true}};
}

std::uint64_t CopyWorkload::bytesMoved() const {
  return 2ull * byteCount();
}

void CopyWorkload::reference(std::span<const HostArray> inputs, std::size_t, std::size_t begin,
                             std::span<double> out) const {
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = inputs[0].at(begin + i);
}

}  // namespace kwb
