#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "kernels/hostdevice.h"
#include "kernels/permute/matrixorder.h"

namespace kwb::permute {

// Batched transposes with one narrow side, as NCHW <-> NHWC with few channels: `narrow` planes
// of `wide` elements each, read or written interleaved (wide x narrow). A square tile would be
// mostly empty; instead a block moves every plane's run of `chunkWidth` elements, which is one
// contiguous run of the interleaved side, both through shared memory in accesses of vectorBytes
// from vector boundaries of the tensors: runs that start or end inside a vector (planes of an odd
// width, a source at any offset) take that vector whole on loads, in part on stores. The batch may
// come in another order than the destination's (`order`): a chunk's matrix is the destination's,
// its source matrix found through the order.
struct NarrowLaunch {
  std::int64_t batch = 1;
  MatrixOrder<std::int64_t> order;
  std::int64_t narrow = 0;   // planes: the short side
  std::int64_t wide = 0;     // elements per plane: the long side
  bool planarSource = true;  // planes -> interleaved; false: interleaved -> planes
  int elementBytes = 4;
  int vectorBytes = 16;   // bytes per global access
  bool swizzled = false;  // the chunk's vectors swizzled in shared memory (swizzledVector)
  bool cells = false;     // cells transposed in registers (launchNarrowCells), not shared memory
  int block = 256;
  bool index32 = true;
  int grid = 1;
  const void* src = nullptr;
  void* dst = nullptr;
  // Elements the source and the destination start into their first vector.
  int sourceHead = 0;
  int destinationHead = 0;

  // Vector accesses each thread has in flight: a block's chunk is block * this many vectors.
  static constexpr int kVectorsPerThread = 4;

  static int headOf(const void* p, int vectorBytes, int elementBytes) {
    return static_cast<int>(reinterpret_cast<std::uintptr_t>(p) % vectorBytes) / elementBytes;
  }
  std::int64_t elementsPerVector() const { return vectorBytes / elementBytes; }
  int planarHead() const { return planarSource ? sourceHead : destinationHead; }
  // Whether a plane's run may start inside a vector: each then spans one vector more.
  bool planesShifted() const { return wide % elementsPerVector() != 0 || planarHead() != 0; }
  // Whether any run, a plane's or the interleaved one, may start inside a vector.
  bool shifted() const {
    const int interleavedHead = planarSource ? destinationHead : sourceHead;
    return planesShifted() || interleavedHead != 0 ||
           (batch > 1 && narrow * wide % elementsPerVector() != 0);
  }
  // Elements of each plane one block moves at once: a whole number of vectors, one fewer where
  // the planes are shifted, so that the vectors spanning them still fit the block's loads.
  std::int64_t chunkWidth() const {
    return elementsPerVector() * (block * kVectorsPerThread / narrow - (planesShifted() ? 1 : 0));
  }
  std::int64_t chunks() const { return batch * ((wide + chunkWidth() - 1) / chunkWidth()); }
  // The most 4-byte words of shared memory one bank serves at once where the planar side's lanes
  // each take an element of their vector, vectorBytes * narrow bytes apart, with the chunk's
  // vectors swizzled or not: 32 for 8 planes of 16-byte vectors unswizzled, 4 swizzled.
  int bankWays(bool swizzle) const;
  // Whether swizzling the chunk's vectors pays: where it takes a bank's words from 8 or more to
  // half as many in 16-byte vectors (f32, 8 planes: 1668 -> 4070 GB/s; 3 planes, 4 -> 8 words:
  // 4108 -> 3905; H200), from 16 or more to an eighth in 8-byte ones (u8, 16 planes: 490 ->
  // 2128; H100; f32, 12 planes, 8 -> 4 words: 3810 -> 3320; H200); never in narrower vectors,
  // where its index arithmetic costs more than the conflicts save (f16 pairs, 8 planes: 2219 ->
  // 1844; H200).
  bool swizzlePays() const {
    const int ways = bankWays(false), swizzledWays = bankWays(true);
    if (vectorBytes == 16) return ways >= 8 && 2 * swizzledWays <= ways;
    return vectorBytes == 8 && ways >= 16 && 8 * swizzledWays <= ways;
  }
  // The swizzle's shift: the factors of 2 narrow holds past a row's vectors (16 planes of
  // 16-byte vectors: 1), so that lanes 2^shift rows apart take rows of their own numbers.
  int swizzleShift() const {
    const std::int64_t perRow = 128 / vectorBytes;
    int shift = 0;
    while (narrow > 0 && narrow % (perRow << (shift + 1)) == 0) ++shift;
    return shift;
  }
  // The interleaved run as its vectors hold it, a vector more than the chunk where it may start
  // inside one, in whole 128-byte rows: swizzled vectors stay within theirs.
  std::int64_t sharedBytes() const {
    return (chunkWidth() * narrow * elementBytes + (shifted() ? vectorBytes : 0) + 127) / 128 * 128;
  }
};

// Where vector v of a narrow transpose's interleaved chunk lies in shared memory when swizzled:
// XORed with its 128-byte row's number (perRow vectors a row) shifted right by `shift`, within
// the row. The planar side's lanes lie narrow vectors apart; where narrow is a multiple of 8 or
// 16, 2^shift rows apart (NarrowLaunch::swizzleShift), so the XOR takes a lane's number and
// spreads them over the banks, while each row still holds the same vectors for the interleaved
// side.
template <typename Index>
KWB_HOST_DEVICE Index swizzledVector(Index v, Index perRow, int shift) {
  return v ^ ((v / perRow >> shift) & (perRow - 1));
}

// Where element q of the interleaved chunk lies in shared memory, in elements, when its vectors of
// k elements are swizzled.
template <typename Index>
KWB_HOST_DEVICE Index swizzledElement(Index q, Index k, Index perRow, int shift) {
  return swizzledVector(q / k, perRow, shift) * k + q % k;
}

// The widest access of at most `limit` bytes, and no narrower than an element, that divides a
// plane of `wide` elements and the source's start, `sourceOffsetBytes` into its allocation: the
// widest whose runs all start on vectors.
int narrowVectorBytes(std::int64_t wide, int elementBytes, std::int64_t sourceOffsetBytes = 0,
                      int limit = 16);

void launchNarrowTranspose(const NarrowLaunch& launch, cudaStream_t stream);

// Cells in registers: for bytes and halves the shared-memory kernel stores each element into
// shared memory by itself. Here a lane loads 4-byte words (16-byte vectors where every run starts
// on one) of each of up to kMaxCellNarrow planes, or as many of the interleaved run they make,
// transposes each cell of a word a plane with byte permutes, and a warp passes its cells through
// its own stretch of shared memory: both sides move coalesced, a span of 128 of each plane's words
// a warp. Runs that start inside words (planes whose width is not whole words, a source off a
// word) read and write the aligned words that cover them, shifted into place.
inline constexpr int kMaxCellNarrow = 8;
bool narrowCellsFit(std::int64_t narrow, int elementBytes);
// Whether every plane's run starts on a 4-byte word, so that no cell shifts: a width of whole words
// and a source on one.
bool narrowCellsAligned(std::int64_t wide, int elementBytes, std::int64_t sourceOffsetBytes);
// Whether a launch's runs start inside words, for the shifted kernel.
bool narrowCellsShifted(const NarrowLaunch& launch);
// Whether cells beat the shared exchange by default: wherever runs start on words; where they
// start inside words, for bytes from planes to interleaved only.
bool narrowCellsPay(std::int64_t narrow, std::int64_t wide, int elementBytes,
                    std::int64_t sourceOffsetBytes, bool planarSource);
// Shared memory a block of `block` threads takes: a stretch a warp, at most what every GPU gives
// a block without opting in (6 planes or more in blocks of 512 take more).
std::int64_t narrowCellsSharedBytes(std::int64_t narrow, int block);
inline constexpr std::int64_t kMaxCellSharedBytes = 48 * 1024;
bool narrowCellsFitBlock(std::int64_t narrow, int block);
// The warps' spans: the work items of the grid.
std::int64_t narrowCellSpans(const NarrowLaunch& launch);
void launchNarrowCells(const NarrowLaunch& launch, cudaStream_t stream);

}  // namespace kwb::permute
