#pragma once

// Functions the kernels and their CPU references or tests share: host and device under nvcc,
// plain inline functions elsewhere.
#ifdef __CUDACC__
#define KWB_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define KWB_HOST_DEVICE inline
#endif
