#pragma once

#include <cstdint>

#include <cuda_runtime.h>

namespace kwb::permute {

// Batched transposes of small planes, as (15978, 84, 100) with (0, 2, 1): a block moves whole
// planes through shared memory. A plane's bytes are one contiguous run on both sides, so it loads
// in 16-byte vectors and stores in 4-byte words (8-byte ones for 8-byte elements), each word
// gathering its elements, consecutive rows of one source column, from shared memory. Tiles of a
// plane this short are mostly empty, and packed tiles cap a tile below many such planes.
struct PlaneLaunch {
  std::int64_t batch = 1;
  std::int64_t rows = 0;  // of a source plane: the destination's columns
  std::int64_t cols = 0;
  int elementBytes = 1;
  int block = 128;
  int grid = 1;
  const void* src = nullptr;
  void* dst = nullptr;

  std::int64_t planeBytes() const { return rows * cols * elementBytes; }
  int wordBytes() const { return elementBytes == 8 ? 8 : 4; }
  // Elements a destination word holds: rows of one source column.
  int wordElements() const { return wordBytes() / elementBytes; }
  // A plane loads in whole 16-byte vectors; a destination row stores in whole words.
  bool wholeVectors() const { return planeBytes() % 16 == 0; }
  bool wholeWords() const { return rows % wordElements() == 0; }
  // The most distinct shared-memory words one bank serves in a step of a warp's gathers, where
  // the warp's 32 destination words lie in one destination row: lanes 8 apart start on
  // different elements of their words, so that for (84, 100) in u8 every lane has a bank of its
  // own.
  int bankWays() const;
};

// Where this kernel applies: a batched transpose whose planes are whole 16-byte vectors that fit
// shared memory, whose destination rows are whole words, and whose source starts on a vector.
bool planesFit(std::int64_t rows, std::int64_t cols, int elementBytes,
               std::int64_t sourceOffsetBytes, std::int64_t maxPlaneBytes);

// Blocks of `block` threads an SM can hold with a plane each; 0 where no device answers.
int residentPlaneBlocks(const PlaneLaunch& launch);

void launchPlaneTranspose(const PlaneLaunch& launch, cudaStream_t stream);

}  // namespace kwb::permute
