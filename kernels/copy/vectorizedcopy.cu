#include "kernels/copy/vectorizedcopy.h"

#include <cstdint>

#include "core/error.h"
#include "kernels/cudacheck.h"

namespace kwb {
namespace {

// Plain unsigned types of each width: a copy moves bits, never values.
template <int Bytes>
struct Word;
template <>
struct Word<1> {
  using type = std::uint8_t;
};
template <>
struct Word<2> {
  using type = std::uint16_t;
};
template <>
struct Word<4> {
  using type = std::uint32_t;
};
template <>
struct Word<8> {
  using type = uint2;
};
template <>
struct Word<16> {
  using type = uint4;
};

template <int VectorBytes, int ElementBytes>
__global__ void copyKernel(void* __restrict__ dstRaw, const void* __restrict__ srcRaw,
                           std::size_t vectorCount, std::size_t tailStart, std::size_t count) {
  using Vector = typename Word<VectorBytes>::type;
  auto* dst = static_cast<Vector*>(dstRaw);
  const auto* src = static_cast<const Vector*>(srcRaw);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < vectorCount; i += stride)
    dst[i] = src[i];

  // Fewer than VectorBytes / ElementBytes elements are left; the first threads take them.
  if constexpr (VectorBytes > ElementBytes) {
    using Element = typename Word<ElementBytes>::type;
    const std::size_t tail =
        tailStart + static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (tail < count)
      static_cast<Element*>(dstRaw)[tail] = static_cast<const Element*>(srcRaw)[tail];
  }
}

template <int VectorBytes, int ElementBytes>
void launch(void* dst, const void* src, std::size_t count, int grid, int block,
            cudaStream_t stream) {
  constexpr std::size_t perVector = VectorBytes / ElementBytes;
  const std::size_t vectors = count / perVector;
  copyKernel<VectorBytes, ElementBytes>
      <<<grid, block, 0, stream>>>(dst, src, vectors, vectors * perVector, count);
  KWB_CHECK_LAUNCH("copyKernel");
}

template <int VectorBytes>
void dispatchElement(void* dst, const void* src, std::size_t count, int elementBytes, int grid,
                     int block, cudaStream_t stream) {
  switch (elementBytes) {
    case 1:
      if constexpr (VectorBytes >= 1)
        return launch<VectorBytes, 1>(dst, src, count, grid, block, stream);
      break;
    case 2:
      if constexpr (VectorBytes >= 2)
        return launch<VectorBytes, 2>(dst, src, count, grid, block, stream);
      break;
    case 4:
      if constexpr (VectorBytes >= 4)
        return launch<VectorBytes, 4>(dst, src, count, grid, block, stream);
      break;
    case 8:
      if constexpr (VectorBytes >= 8)
        return launch<VectorBytes, 8>(dst, src, count, grid, block, stream);
      break;
    default: break;
  }
  throw Error(ErrorKind::Internal, "vectorized copy: no kernel for element size " +
                                       std::to_string(elementBytes) + " with vector size " +
                                       std::to_string(VectorBytes));
}

}  // namespace

void launchVectorizedCopy(void* dst, const void* src, std::size_t count, int elementBytes,
                          int vectorBytes, int grid, int block, cudaStream_t stream) {
  switch (vectorBytes) {
    case 1: return dispatchElement<1>(dst, src, count, elementBytes, grid, block, stream);
    case 2: return dispatchElement<2>(dst, src, count, elementBytes, grid, block, stream);
    case 4: return dispatchElement<4>(dst, src, count, elementBytes, grid, block, stream);
    case 8: return dispatchElement<8>(dst, src, count, elementBytes, grid, block, stream);
    case 16: return dispatchElement<16>(dst, src, count, elementBytes, grid, block, stream);
    default: break;
  }
  throw Error(ErrorKind::Internal,
              "vectorized copy: unsupported vector size " + std::to_string(vectorBytes));
}

}  // namespace kwb
