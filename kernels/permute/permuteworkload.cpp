#include "kernels/permute/permuteworkload.h"

#include <algorithm>

namespace kwb::permute {

PermuteWorkload::PermuteWorkload(Permutation original, DType dtype, std::int64_t offset,
                                 PermuteLauncher launch, ParamSet derived)
    : original_(std::move(original)),
      sourceOffsets_(original_),
      dtype_(dtype),
      offset_(offset),
      launch_(std::move(launch)),
      derived_(std::move(derived)) {}

std::vector<BufferSpec> PermuteWorkload::buffers() const {
  const auto count = static_cast<std::size_t>(original_.elements());
  // The source's buffer ends on an 8-byte boundary, so that kernels reading a row's aligned
  // words may read the one holding its last element whole.
  const std::size_t perWord = std::max<std::size_t>(1, 8 / sizeOf(dtype_));
  const std::size_t source = count + static_cast<std::size_t>(offset_);
  const std::size_t padded = (source + perWord - 1) / perWord * perWord;
  return {{"x", dtype_, padded, false, false, padded - source}, {"out", dtype_, count, true}};
}

std::uint64_t PermuteWorkload::bytesMoved() const {
  return 2 * static_cast<std::uint64_t>(original_.elements()) * sizeOf(dtype_);
}

void PermuteWorkload::enqueue(std::span<void* const> buffers, cudaStream_t stream) const {
  launch_(static_cast<const char*>(buffers[0]) + static_cast<std::size_t>(offset_) * sizeOf(dtype_),
          buffers[1], stream);
}

void PermuteWorkload::reference(std::span<const HostArray> inputs, std::size_t, std::size_t begin,
                                std::span<double> out) const {
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = inputs[0].at(
        static_cast<std::size_t>(offset_ + sourceOffsets_(static_cast<std::int64_t>(begin + i))));
}

std::string listText(const std::vector<std::int64_t>& items) {
  std::string text;
  for (auto v : items) text += (text.empty() ? "" : ",") + std::to_string(v);
  return text;
}

std::string listText(const std::vector<int>& items) {
  return listText(std::vector<std::int64_t>(items.begin(), items.end()));
}

}  // namespace kwb::permute
