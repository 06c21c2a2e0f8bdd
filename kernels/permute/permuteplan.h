#pragma once

#include <cstdint>
#include <vector>

namespace kwb::permute {

inline constexpr int kMaxDims = 8;

// dst = src.permute(perm): destination dimension i is source dimension perm[i]. Both tensors
// are contiguous, row-major.
struct Permutation {
  std::vector<std::int64_t> shape;  // of the source
  std::vector<int> perm;

  std::int64_t elements() const;
  bool operator==(const Permutation&) const = default;
};

// Each source dimension's stride in the source and in the destination, in elements.
struct DimensionStrides {
  std::int64_t src[kMaxDims] = {}, dst[kMaxDims] = {};
};
DimensionStrides stridesOf(const Permutation& p);

// Throws Error(Param) on "perm" for a permutation that does not fit the shape: wrong length, an
// axis out of range or repeated.
void checkPermutation(const Permutation& p);

// The same permutation of the same bytes with fewer dimensions: size-1 dimensions dropped, and
// source dimensions that stay next to each other, in order, in the destination merged into one.
// A permutation that moves nothing becomes {elements} with perm {0}.
Permutation simplify(const Permutation& p);

// Bytes moved by one access when the innermost dimension stays innermost: the widest of 16, 8,
// 4, 2, 1 that divides its row in bytes and the alignment of both pointers, capped at `limit`;
// the element size when the innermost dimension moves.
int movementSize(const Permutation& simplified, int elementBytes, std::uintptr_t srcAddress,
                 std::uintptr_t dstAddress, int limit = 16);

// The permutation in units of `movementBytes`: the innermost dimension shrinks by
// movementBytes / elementBytes. Only for a movement size movementSize() allows.
Permutation inMovementUnits(const Permutation& simplified, int elementBytes, int movementBytes);

// Destination offset -> source offset, with the strides worked out once: the CPU reference asks
// for every element.
class SourceOffsets {
 public:
  explicit SourceOffsets(const Permutation& p);
  std::int64_t operator()(std::int64_t destinationOffset) const;

 private:
  int rank_ = 0;
  std::int64_t sizes_[kMaxDims] = {};    // the destination's dimensions
  std::int64_t strides_[kMaxDims] = {};  // the stride of the source dimension each one is
};

// A dimension of a tiling: its size and its strides in the source and the destination.
struct StridedAxis {
  std::int64_t size = 1;
  std::int64_t srcStride = 0;
  std::int64_t dstStride = 0;
};

// The source (or destination) offset of a combined index over `axes`, innermost first.
std::int64_t combinedOffset(const StridedAxis* axes, int rank, std::int64_t index, bool src);

// One offset, for tests and one-off questions.
std::int64_t sourceOffset(const Permutation& p, std::int64_t destinationOffset);

}  // namespace kwb::permute
