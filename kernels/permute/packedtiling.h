#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "kernels/hostdevice.h"
#include "kernels/permute/permuteplan.h"

namespace kwb::permute {

// A permutation moved as packed tiles (cuTT's "packed" method): a tile holds every element of a
// few dimensions, the source's innermost ones and the destination's innermost ones together,
// with one of them possibly cut into chunks. A block reads a tile in the source's order and
// writes it in the destination's, so each side runs along as much contiguous memory as the
// tile's dimensions give it, however short each dimension is: (5, 273913, 49) reversed reads 49
// x 16 bytes at a time and writes 5 x 16, where tiles of two groups write runs of 5.
struct PackedTiling {
  struct Axis {
    std::int64_t size = 1;  // the dimension's size
    int extent = 1;         // how much of it a tile holds: all of it, or a chunk
    std::int64_t srcStride = 0, dstStride = 0;
    int sharedStride = 0;  // in the tile's shared memory, elements
  };
  int rank = 0;  // the tile's dimensions, innermost first in the source
  Axis axis[kMaxDims];
  int dstOrder[kMaxDims] = {};  // the same dimensions, innermost first in the destination
  int split = -1;               // the dimension cut into chunks, or -1
  std::int64_t chunks = 1;
  int batchRank = 0;  // the dimensions no tile holds, innermost first in the source
  StridedAxis batch[kMaxDims];
  std::int64_t batchExtent = 1;
  int volume = 1;                      // elements in a tile
  int sharedElements = 1;              // the tile in shared memory, with its padding
  std::int64_t runIn = 1, runOut = 1;  // a tile's contiguous runs in the source and destination

  std::int64_t tiles() const { return batchExtent * chunks; }
  // "tile 5 x 16/273913 x 49 | reads 784 | writes 80": the tile's dimensions as the source
  // lists them (a chunk as chunk/size), and its runs in elements.
  std::string describe() const;
};

// Elements in a tile at most: 8 a thread of a 512-thread block.
inline constexpr int kMaxPackedVolume = 4096;

// The tile that moves a simplified permutation best by a model of its memory accesses: runs
// shorter than a sector waste most of what they fetch, small tiles their barriers, chunks that
// do not divide their dimension the last chunk's empty part. The tile holds at most maxVolume
// elements; none where even the innermost dimension of each side would need cutting (a
// transpose of two long sides: tiles of two groups take those).
std::optional<PackedTiling> packedTiling(const Permutation& simplified, int elementBytes,
                                         int maxVolume = kMaxPackedVolume);

// Where the tile's p-th element in source order (load) or destination order (store) lives: the
// offsets the kernel computes, for the CPU to check.
struct PackedElement {
  bool inside = false;      // a last chunk may hold less than the others
  std::int64_t offset = 0;  // in the source for loads, the destination for stores
  int shared = 0;
};
PackedElement packedLoad(const PackedTiling& g, std::int64_t tile, int p);
PackedElement packedStore(const PackedTiling& g, std::int64_t tile, int p);

// How a tile moves in words: each side's runs cut into words of `bytes`, loaded whole into the
// tile (unpadded in the source's order, its words swizzled within 128-byte rows or not) and
// gathered from it element by element.
struct PackedWords {
  int bytes = 0;         // 0: no words fit
  bool swizzle = false;  // word index within each 128-byte row XOR the row's
  double bankWays = 1;   // shared words a bank serves in a warp's gather, on average
};

// Where byte b of a tile in words of wordBytes lies in shared memory: where swizzled, the index of
// its word within its 128-byte row XOR the row's index, so that a warp's gathers, a destination
// word apart in the source's order, spread over more banks.
KWB_HOST_DEVICE int packedWordsAddress(int b, int wordBytes, bool swizzle) {
  return swizzle ? b ^ ((b >> 7) & (128 / wordBytes - 1)) * wordBytes : b;
}

// The words that move a tile fastest by a model of their instructions and bank conflicts: words
// of 16, 8 or 4 bytes holding two or more elements of 4 bytes or fewer, where every word of each
// side lies whole in one run, starts on its width in memory (the source starting
// sourceOffsetBytes into its buffer) and is all in or all out of a last chunk. bytes is 0 where
// no words fit.
PackedWords packedWords(const PackedTiling& g, int elementBytes, std::int64_t sourceOffsetBytes);

}  // namespace kwb::permute
