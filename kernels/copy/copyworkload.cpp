#include "kernels/copy/copyworkload.h"

namespace kwb {

std::vector<BufferSpec> CopyWorkload::buffers() const {
  return {{"src", dtype_, count_, false}, {"dst", dtype_, count_, true}};
}

std::uint64_t CopyWorkload::bytesMoved() const { return 2ull * byteCount(); }

std::vector<std::vector<double>> CopyWorkload::reference(std::span<const HostArray> inputs) const {
  const HostArray& src = inputs[0];
  std::vector<double> expected(src.size());
  for (std::size_t i = 0; i < src.size(); ++i) expected[i] = src.at(i);
  return {std::move(expected)};
}

}  // namespace kwb
