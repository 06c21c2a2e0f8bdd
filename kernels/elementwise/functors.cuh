#pragma once

// The ops as device functors. Scalar math is done in float for every type (half and bfloat16
// have no erf, tanh or exp of their own worth using); the pair forms (OneFlow's Apply2) use the
// native half2/bfloat162 instructions where the architecture has one and convert a pair at a time
// elsewhere.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <type_traits>
#include <utility>

namespace kwb::elementwise {

template <typename T>
__device__ __forceinline__ float toFloat(T x) {
  return static_cast<float>(x);
}
template <>
__device__ __forceinline__ float toFloat(__half x) {
  return __half2float(x);
}
template <>
__device__ __forceinline__ float toFloat(__nv_bfloat16 x) {
  return __bfloat162float(x);
}

template <typename T>
__device__ __forceinline__ T fromFloat(float x) {
  return static_cast<T>(x);
}
template <>
__device__ __forceinline__ __half fromFloat(float x) {
  return __float2half_rn(x);
}
template <>
__device__ __forceinline__ __nv_bfloat16 fromFloat(float x) {
  return __float2bfloat16_rn(x);
}

// The pair type of a 16-bit type, and conversions of a whole pair in one instruction.
template <typename T>
struct Pair;
template <>
struct Pair<__half> {
  using type = __half2;
};
template <>
struct Pair<__nv_bfloat16> {
  using type = __nv_bfloat162;
};
template <>
struct Pair<float> {
  using type = float2;
};

template <typename P>
__device__ __forceinline__ float2 pairToFloat2(P p);
template <>
__device__ __forceinline__ float2 pairToFloat2(__half2 p) {
  return __half22float2(p);
}
template <>
__device__ __forceinline__ float2 pairToFloat2(__nv_bfloat162 p) {
  return __bfloat1622float2(p);
}
template <>
__device__ __forceinline__ float2 pairToFloat2(float2 p) {
  return p;
}

template <typename P>
__device__ __forceinline__ P pairFromFloat2(float2 f);
template <>
__device__ __forceinline__ __half2 pairFromFloat2(float2 f) {
  return __float22half2_rn(f);
}
template <>
__device__ __forceinline__ __nv_bfloat162 pairFromFloat2(float2 f) {
  return __float22bfloat162_rn(f);
}
template <>
__device__ __forceinline__ float2 pairFromFloat2(float2 f) {
  return f;
}

// Whether O = I is a pair type with native pair arithmetic on the architecture being compiled:
// half2 everywhere we build for; bfloat162 from sm_80 (below it cuda_bf16.h has no __hfma2 for it
// and emulates the rest through float, which viaFloat2 already does).
template <typename O, typename I>
__device__ constexpr bool nativePair() {
  if constexpr (!std::is_same_v<O, I>) return false;
  if constexpr (std::is_same_v<I, __half2>) return true;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (std::is_same_v<I, __nv_bfloat162>) return true;
#endif
  return false;
}

// Calls f(get(0), ..., get(A - 1)): the one spelling of "apply an op to its A inputs".
template <int A, typename F, typename Get>
__device__ __forceinline__ auto callWith(const F& f, Get get) {
  return [&]<int... I>(std::integer_sequence<int, I...>) {
    return f(get(I)...);
  }
  (std::make_integer_sequence<int, A>{});
}

// Pair math through float, for ops with no native pair instruction.
template <typename OutPair, typename Op, typename... InPairs>
__device__ __forceinline__ OutPair viaFloat2(const Op& op, InPairs... in) {
  const float2 f[] = {pairToFloat2(in)...};
  constexpr int kA = sizeof...(InPairs);
  return pairFromFloat2<OutPair>({callWith<kA>(op, [&](int a) { return f[a].x; }),
                                  callWith<kA>(op, [&](int a) { return f[a].y; })});
}

struct Relu {
  static constexpr int kArity = 1;
  __device__ __forceinline__ float operator()(float x) const { return x > 0.f ? x : 0.f; }
  template <typename O, typename I>
  __device__ __forceinline__ O pair(I x) const {
    if constexpr (nativePair<O, I>())
      return __hmax2(x, I{});  // native pair max; zero-initialized I is +0, +0
    else
      return viaFloat2<O>(*this, x);
  }
};

struct Gelu {
  static constexpr int kArity = 1;
  // x * (0.5 + 0.5 erf) in one FMA and one multiply: the same rounding as 0.5 x (1 + erf), since
  // halving is exact, and one instruction less per element where the math, not DRAM, is the limit.
  __device__ __forceinline__ float operator()(float x) const {
    return x * fmaf(0.5f, erff(x * 0.70710678118654752f), 0.5f);
  }
  template <typename O, typename I>
  __device__ __forceinline__ O pair(I x) const {
    return viaFloat2<O>(*this, x);
  }
};

// 2^x in one instruction, to about 2 ulp; results below 2^-126 flush to zero.
__device__ __forceinline__ float exp2Approx(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

struct GeluTanh {
  static constexpr int kArity = 1;
  // x (1 + tanh u) / 2 is x sigmoid(2u) = x / (1 + 2^(-2u log2 e)), u = sqrt(2/pi) (x + 0.044715
  // x^3): one exponential and one reciprocal, 7 instructions an element where tanhf's two ranges,
  // both computed and one selected, took 21 (f32 at 602112 elements, 4 a thread: 105 instructions
  // a warp, 84 of them the math). The result is within a few ulp of the exact value, closer than
  // 0.5 x (1 + tanhf(u)), which cancels where tanh u nears -1.
  __device__ __forceinline__ float operator()(float x) const {
    constexpr float kA = -2.f * 0.7978845608028654f * 1.4426950408889634f;  // -2 sqrt(2/pi) log2 e
    return __fdividef(x, 1.f + exp2Approx(x * fmaf(kA * 0.044715f, x * x, kA)));
  }
  template <typename O, typename I>
  __device__ __forceinline__ O pair(I x) const {
    return viaFloat2<O>(*this, x);
  }
};

struct Silu {
  static constexpr int kArity = 1;
  // A reciprocal, not an IEEE division (its refinement and slow path): 2 ulp, and 0 where the
  // exponential passes 2^126, as the exact value nearly is.
  __device__ __forceinline__ float operator()(float x) const {
    return __fdividef(x, 1.f + __expf(-x));
  }
  template <typename O, typename I>
  __device__ __forceinline__ O pair(I x) const {
    return viaFloat2<O>(*this, x);
  }
};

struct Mul {
  static constexpr int kArity = 2;
  __device__ __forceinline__ float operator()(float x, float y) const { return x * y; }
  template <typename O, typename I>
  __device__ __forceinline__ O pair(I x, I y) const {
    if constexpr (nativePair<O, I>())
      return __hmul2(x, y);  // exact product, one rounding: the same as float then round
    else
      return viaFloat2<O>(*this, x, y);
  }
};

struct MulAdd {
  static constexpr int kArity = 3;
  __device__ __forceinline__ float operator()(float x, float y, float z) const {
    return fmaf(x, y, z);
  }
  template <typename O, typename I>
  __device__ __forceinline__ O pair(I x, I y, I z) const {
    if constexpr (nativePair<O, I>())
      return __hfma2(x, y, z);
    else
      return viaFloat2<O>(*this, x, y, z);
  }
};

struct Cast {
  static constexpr int kArity = 1;
  __device__ __forceinline__ float operator()(float x) const { return x; }
  template <typename O, typename I>
  __device__ __forceinline__ O pair(I x) const {
    return viaFloat2<O>(*this, x);
  }
};

}  // namespace kwb::elementwise
