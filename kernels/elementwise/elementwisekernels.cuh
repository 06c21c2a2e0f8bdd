#pragma once

// The elementwise kernels, OneFlow style: packs of up to 16 bytes moved as one access, a grid
// sized in waves, a grid-stride loop over whole packs, and the few elements that do not fill a
// last pack handled one by one. Included by each op's translation unit in ops/.
#include <cstdint>
#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "core/error.h"
#include "kernels/cudacheck.h"
#include "kernels/elementwise/elementwiselaunch.h"
#include "kernels/elementwise/functors.cuh"

namespace kwb::elementwise {

// N elements of T that load and store as one access of N * sizeof(T) bytes.
template <typename T, int N>
struct alignas(sizeof(T) * N) Packed {
  T elem[N];
};

template <typename T, int A>
struct Inputs {
  const T* p[A];
};

template <typename Op, typename Out, typename In, int A, typename Index>
__device__ __forceinline__ Out applyScalar(const Op& op, const Inputs<In, A>& in, Index i) {
  return fromFloat<Out>(callWith<A>(op, [&](int a) { return toFloat(in.p[a][i]); }));
}

template <typename Op, typename Out, typename In, int A>
__global__ void naiveKernel(Op op, Out* __restrict__ out, Inputs<In, A> in, std::int64_t n) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = applyScalar<Op, Out>(op, in, i);
}

// Each thread loads U packs, spaced a block apart so that every load of a warp stays coalesced,
// before it computes and stores any: U independent 16-byte loads in flight per thread instead of
// one. With Pairs, the math runs on half2/bfloat162 pairs. OnePass: the grid holds a thread for
// every U packs, so the loop runs once.
template <int P, int U, bool Pairs, bool OnePass, typename Index, typename Op, typename Out,
          typename In, int A>
__device__ __forceinline__ void walkPacks(const Op& op, Out* __restrict__ out,
                                          const Inputs<In, A>& in, Index packs, Index first,
                                          Index stride) {
  for (Index base = first; base < packs; base += stride) {
    Packed<In, P> x[U][A];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const Index i = base + u * blockDim.x;
      if (i < packs) {
#pragma unroll
        for (int a = 0; a < A; ++a) x[u][a] = reinterpret_cast<const Packed<In, P>*>(in.p[a])[i];
      }
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const Index i = base + u * blockDim.x;
      if (i >= packs) break;
      Packed<Out, P> y;
      if constexpr (Pairs) {
        using InPair = typename Pair<In>::type;
        using OutPair = typename Pair<Out>::type;
#pragma unroll
        for (int j = 0; j < P; j += 2) {
          const auto pair = [&](auto... p) { return op.template pair<OutPair>(p...); };
          *reinterpret_cast<OutPair*>(&y.elem[j]) = callWith<A>(
              pair, [&](int a) { return *reinterpret_cast<const InPair*>(&x[u][a].elem[j]); });
        }
      } else {
#pragma unroll
        for (int j = 0; j < P; ++j)
          y.elem[j] =
              fromFloat<Out>(callWith<A>(op, [&](int a) { return toFloat(x[u][a].elem[j]); }));
      }
      reinterpret_cast<Packed<Out, P>*>(out)[i] = y;
    }
    if constexpr (OnePass) break;
  }
}

// Index and OnePass are the launch's choice. Index: 32-bit where n and a grid's stride past it
// fit. A kernel that held both paths and chose on the device computed 64-bit bounds before its
// first load and jumped past its 64-bit loop to the 32-bit one; at small sizes that was a few per
// cent of the kernel (f32 mul at 150528 elements: 3.38 -> 3.23 us under Nsight Compute, H100).
// OnePass: the grid has a thread for every U packs, as the default launch has below 32 waves, so
// the loop's bounds and branches go: a few per cent of a one-pack thread's instructions.
template <int P, int U, bool Pairs, bool OnePass, typename Index, typename Op, typename Out,
          typename In, int A>
__global__ void packedKernel(Op op, Out* __restrict__ out, Inputs<In, A> in, Index n) {
  const Index packs = n / P;
  const Index thread = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x;
  const Index first = static_cast<Index>(blockIdx.x) * blockDim.x * U + threadIdx.x;
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x * U;
  walkPacks<P, U, Pairs, OnePass, Index>(op, out, in, packs, first, stride);
  // The tail: fewer than P elements after the last whole pack; the first threads take them. The
  // outer test is the same for every thread, so kernels without a tail skip it in one branch.
  if constexpr (P > 1) {
    if (packs * P != n) {
      const Index tail = packs * P + thread;
      if (tail < n) out[tail] = applyScalar<Op, Out>(op, in, tail);
    }
  }
}

// Launches one kernel of the family: the dispatch below picks it once, when a workload is made.
template <auto kernel, bool kNaive, typename Op, typename Out, typename In,
          typename Index = std::int64_t>
void launchKernel(const ElementwiseLaunch& l, cudaStream_t stream) {
  Inputs<In, Op::kArity> in;
  for (int a = 0; a < Op::kArity; ++a) in.p[a] = static_cast<const In*>(l.inputs[a]);
  kernel<<<l.grid, l.block, 0, stream>>>(Op{}, static_cast<Out*>(l.output), in,
                                         static_cast<Index>(l.n));
  checkCuda(cudaGetLastError(), kNaive ? "launch of naiveKernel" : "launch of packedKernel",
            __FILE__, __LINE__);
}

template <auto kernel, bool kNaive, typename Op, typename Out, typename In,
          typename Index = std::int64_t>
ElementwiseKernel kernelOf() {
  return {reinterpret_cast<const void*>(kernel), &launchKernel<kernel, kNaive, Op, Out, In, Index>};
}

template <typename T>
struct TypeTag {
  using type = T;
};

template <typename F>
auto withType(DType type, F&& f) {
  switch (type) {
    case DType::F32: return f(TypeTag<float>{});
    case DType::F16: return f(TypeTag<__half>{});
    case DType::BF16: return f(TypeTag<__nv_bfloat16>{});
    default: break;
  }
  throw Error(ErrorKind::Internal, "elementwise: no kernel for " + std::string(toString(type)));
}

template <int P, int U, bool Pairs, typename Op, typename Out, typename In>
ElementwiseKernel findPacked([[maybe_unused]] const ElementwiseLaunch& l) {
  // A pack wider than 16 bytes has no single access; the pair path needs 16-bit data.
  constexpr bool valid = P * sizeof(In) <= 16 && P * sizeof(Out) <= 16 &&
                         (!Pairs || (P % 2 == 0 && (sizeof(In) == 2 || sizeof(Out) == 2)));
  if constexpr (valid) {
    constexpr int kA = Op::kArity;
    using U32 = std::uint32_t;
    if (!l.index32())
      return kernelOf<packedKernel<P, U, Pairs, false, std::int64_t, Op, Out, In, kA>, false, Op,
                      Out, In, std::int64_t>();
    // The grid_stride walk keeps its loop, what it teaches, wherever its grid covers the data.
    if (l.passes() == 1 && l.walk != ElementwiseWalk::GridStride)
      return kernelOf<packedKernel<P, U, Pairs, true, U32, Op, Out, In, kA>, false, Op, Out, In,
                      U32>();
    return kernelOf<packedKernel<P, U, Pairs, false, U32, Op, Out, In, kA>, false, Op, Out, In,
                    U32>();
  } else {
    throw Error(ErrorKind::Internal,
                "elementwise: pack of " + std::to_string(P) + " has no kernel for these types");
  }
}

template <int U, bool Pairs, typename Op, typename Out, typename In>
ElementwiseKernel dispatchPack(const ElementwiseLaunch& l) {
  switch (l.pack) {
    case 1:
      if constexpr (!Pairs) return findPacked<1, U, false, Op, Out, In>(l);
      break;
    case 2: return findPacked<2, U, Pairs, Op, Out, In>(l);
    case 4: return findPacked<4, U, Pairs, Op, Out, In>(l);
    case 8: return findPacked<8, U, Pairs, Op, Out, In>(l);
    default: break;
  }
  throw Error(ErrorKind::Internal,
              "elementwise: pack " + std::to_string(l.pack) + " has no kernel");
}

template <bool Pairs, typename Op, typename Out, typename In>
ElementwiseKernel dispatchUnroll(const ElementwiseLaunch& l) {
  switch (l.unroll) {
    case 1: return dispatchPack<1, Pairs, Op, Out, In>(l);
    case 2: return dispatchPack<2, Pairs, Op, Out, In>(l);
    case 4: return dispatchPack<4, Pairs, Op, Out, In>(l);
    default: break;
  }
  throw Error(ErrorKind::Internal,
              "elementwise: unroll " + std::to_string(l.unroll) + " has no kernel");
}

template <typename Op, typename Out, typename In>
ElementwiseKernel findTyped(const ElementwiseLaunch& l) {
  switch (l.walk) {
    case ElementwiseWalk::Naive:
      return kernelOf<naiveKernel<Op, Out, In, Op::kArity>, true, Op, Out, In>();
    case ElementwiseWalk::GridStride: return findPacked<1, 1, false, Op, Out, In>(l);
    case ElementwiseWalk::Packed: return dispatchUnroll<false, Op, Out, In>(l);
    case ElementwiseWalk::PackedPairs:
      if constexpr (sizeof(In) == 2 || sizeof(Out) == 2)
        return dispatchUnroll<true, Op, Out, In>(l);
      break;
  }
  throw Error(ErrorKind::Internal, "elementwise: walk has no kernel for these types");
}

// Same-type ops: out has the input's type.
template <typename Op>
ElementwiseKernel findSameType(const ElementwiseLaunch& l) {
  return withType(l.in, [&](auto in) {
    using T = typename decltype(in)::type;
    return findTyped<Op, T, T>(l);
  });
}

}  // namespace kwb::elementwise
