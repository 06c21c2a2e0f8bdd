#include "widgets/cudawords.h"

namespace kwb {

const QStringList& cudaWords() {
  static const QStringList words{"__global__",
                                 "__device__",
                                 "__host__",
                                 "__shared__",
                                 "__constant__",
                                 "__forceinline__",
                                 "__restrict__",
                                 "__launch_bounds__",
                                 "__syncthreads",
                                 "__syncwarp",
                                 "__shfl_sync",
                                 "__shfl_xor_sync",
                                 "__shfl_down_sync",
                                 "__shfl_up_sync",
                                 "__threadfence",
                                 "__trap",
                                 "atomicAdd",
                                 "atomicMax",
                                 "atomicMin",
                                 "atomicCAS",
                                 "threadIdx",
                                 "blockIdx",
                                 "blockDim",
                                 "gridDim",
                                 "warpSize",
                                 "__ldg",
                                 "__ldcg",
                                 "__stcg",
                                 "asm",
                                 "volatile"};
  return words;
}

}  // namespace kwb
