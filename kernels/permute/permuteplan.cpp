#include "kernels/permute/permuteplan.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "core/error.h"

namespace kwb::permute {

std::int64_t Permutation::elements() const {
  return std::accumulate(shape.begin(), shape.end(), std::int64_t{1}, std::multiplies<>());
}

DimensionStrides stridesOf(const Permutation& p) {
  DimensionStrides s;
  const int rank = static_cast<int>(p.shape.size());
  std::int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    s.src[d] = stride;
    stride *= p.shape[static_cast<std::size_t>(d)];
  }
  stride = 1;
  for (int j = rank - 1; j >= 0; --j) {
    const int d = p.perm[static_cast<std::size_t>(j)];
    s.dst[d] = stride;
    stride *= p.shape[static_cast<std::size_t>(d)];
  }
  return s;
}

void checkPermutation(const Permutation& p) {
  const int rank = static_cast<int>(p.shape.size());
  if (static_cast<int>(p.perm.size()) != rank)
    throw paramError("perm", "has " + std::to_string(p.perm.size()) + " axes for a shape of " +
                                 std::to_string(rank) + " dimensions; give each of 0.." +
                                 std::to_string(rank - 1) + " once");
  std::vector<bool> seen(static_cast<std::size_t>(rank), false);
  for (int axis : p.perm) {
    if (axis < 0 || axis >= rank)
      throw paramError("perm", "axis " + std::to_string(axis) + " is out of range for " +
                                   std::to_string(rank) + " dimensions; allowed: 0.." +
                                   std::to_string(rank - 1));
    if (seen[static_cast<std::size_t>(axis)])
      throw paramError("perm", "axis " + std::to_string(axis) +
                                   " is repeated; a permutation names each axis once");
    seen[static_cast<std::size_t>(axis)] = true;
  }
}

Permutation simplify(const Permutation& p) {
  // Size-1 dimensions move no data: drop them and renumber the rest.
  std::vector<int> kept;  // source dimensions kept, in source order
  for (int d = 0; d < static_cast<int>(p.shape.size()); ++d)
    if (p.shape[static_cast<std::size_t>(d)] != 1) kept.push_back(d);
  if (kept.empty()) return {{1}, {0}};
  std::vector<int> renumber(p.shape.size(), -1);
  for (int i = 0; i < static_cast<int>(kept.size()); ++i)
    renumber[static_cast<std::size_t>(kept[static_cast<std::size_t>(i)])] = i;
  std::vector<int> perm;
  for (int axis : p.perm)
    if (renumber[static_cast<std::size_t>(axis)] >= 0)
      perm.push_back(renumber[static_cast<std::size_t>(axis)]);

  // Runs of destination axes a, a+1, ... are source dimensions that stay together: one group.
  std::vector<std::vector<int>> groups;  // in destination order, each a run of source axes
  for (int axis : perm) {
    if (!groups.empty() && groups.back().back() + 1 == axis)
      groups.back().push_back(axis);
    else
      groups.push_back({axis});
  }
  // The groups in source order give the new source dimensions.
  std::vector<std::size_t> bySource(groups.size());
  std::iota(bySource.begin(), bySource.end(), std::size_t{0});
  std::sort(bySource.begin(), bySource.end(),
            [&](std::size_t a, std::size_t b) { return groups[a].front() < groups[b].front(); });
  Permutation out;
  std::vector<int> newIndex(groups.size());
  for (std::size_t i = 0; i < bySource.size(); ++i) {
    std::int64_t size = 1;
    for (int axis : groups[bySource[i]])
      size *= p.shape[static_cast<std::size_t>(kept[static_cast<std::size_t>(axis)])];
    out.shape.push_back(size);
    newIndex[bySource[i]] = static_cast<int>(i);
  }
  for (std::size_t g = 0; g < groups.size(); ++g) out.perm.push_back(newIndex[g]);
  return out;
}

int movementSize(const Permutation& simplified, int elementBytes, std::uintptr_t srcAddress,
                 std::uintptr_t dstAddress, int limit) {
  const std::size_t last = simplified.shape.size() - 1;
  if (simplified.perm[last] != static_cast<int>(last)) return elementBytes;
  const std::int64_t rowBytes = simplified.shape[last] * elementBytes;
  for (int size = 16; size > elementBytes; size /= 2)
    if (size <= limit && rowBytes % size == 0 && srcAddress % size == 0 && dstAddress % size == 0)
      return size;
  return elementBytes;
}

Permutation inMovementUnits(const Permutation& simplified, int elementBytes, int movementBytes) {
  Permutation out = simplified;
  out.shape.back() /= movementBytes / elementBytes;
  return out;
}

SourceOffsets::SourceOffsets(const Permutation& p) : rank_(static_cast<int>(p.shape.size())) {
  std::int64_t source[kMaxDims];
  std::int64_t stride = 1;
  for (int d = rank_ - 1; d >= 0; --d) {
    source[d] = stride;
    stride *= p.shape[static_cast<std::size_t>(d)];
  }
  for (int i = 0; i < rank_; ++i) {
    const int axis = p.perm[static_cast<std::size_t>(i)];
    sizes_[i] = p.shape[static_cast<std::size_t>(axis)];
    strides_[i] = source[axis];
  }
}

std::int64_t SourceOffsets::operator()(std::int64_t destinationOffset) const {
  // Destination dimensions from the innermost; each is source dimension perm[i].
  std::int64_t source = 0;
  std::int64_t rest = destinationOffset;
  for (int i = rank_ - 1; i >= 0; --i) {
    source += (rest % sizes_[i]) * strides_[i];
    rest /= sizes_[i];
  }
  return source;
}

std::int64_t combinedOffset(const StridedAxis* axes, int rank, std::int64_t index, bool src) {
  std::int64_t offset = 0;
  for (int k = 0; k < rank; ++k) {
    const std::int64_t q = index % axes[k].size;
    index /= axes[k].size;
    offset += q * (src ? axes[k].srcStride : axes[k].dstStride);
  }
  return offset;
}

std::int64_t sourceOffset(const Permutation& p, std::int64_t destinationOffset) {
  return SourceOffsets(p)(destinationOffset);
}

}  // namespace kwb::permute
