#pragma once

#include <cstdint>

#include <cuda_runtime.h>

namespace kwb::permute {

// A batch of row-major rows x cols matrices, each written transposed (cols x rows): the 2-D
// (1,0) and batched (0,2,1) permutations after simplification.
struct TiledLaunch {
  std::int64_t batch = 1;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  int elementBytes = 4;
  int tile = 32;         // tile edge in elements: 16, 32 or 64
  int rowsPerBlock = 8;  // threads in y; each walks tile / rowsPerBlock rows
  bool padding = true;   // one spare column per tile row keeps column reads off a single bank
  bool pairs = false;    // 16-bit elements moved two at a time (needs even rows and cols)
  bool index32 = true;
  int grid = 1;
  const void* src = nullptr;
  void* dst = nullptr;

  std::int64_t tiles() const {
    return batch * ((rows + tile - 1) / tile) * ((cols + tile - 1) / tile);
  }
  int threadsPerBlock() const { return (pairs ? tile / 2 : tile) * rowsPerBlock; }
};

void launchTiledTranspose(const TiledLaunch& launch, cudaStream_t stream);

}  // namespace kwb::permute
