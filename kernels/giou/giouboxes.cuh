#pragma once

// One box of four coordinates loaded or stored as a single access in any of the family's types:
// 16 bytes of f32, 8 of f16 or bf16, 4 of u8.
#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kernels/giou/gioumath.h"

namespace kwb::giou {

template <typename T>
__device__ __forceinline__ Box<float> loadBox(const T* boxes, std::int64_t box);

template <>
__device__ __forceinline__ Box<float> loadBox(const float* boxes, std::int64_t box) {
  const float4 v = reinterpret_cast<const float4*>(boxes)[box];
  return {v.x, v.y, v.z, v.w};
}

// Byte k of v as a float: placed in the low mantissa of 2^23 it is the float 2^23 + byte, exactly;
// a byte permute and a subtract instead of a conversion, which runs at a quarter of the rate.
template <unsigned K>
__device__ __forceinline__ float byteAsFloat(unsigned v) {
  return __uint_as_float(__byte_perm(v, 0x4b000000u, 0x7540u | K)) - 8388608.0f;
}

template <>
__device__ __forceinline__ Box<float> loadBox(const std::uint8_t* boxes, std::int64_t box) {
  const unsigned v = reinterpret_cast<const unsigned*>(boxes)[box];
  return {byteAsFloat<0>(v), byteAsFloat<1>(v), byteAsFloat<2>(v), byteAsFloat<3>(v)};
}

template <>
__device__ __forceinline__ Box<float> loadBox(const __half* boxes, std::int64_t box) {
  const uint2 v = reinterpret_cast<const uint2*>(boxes)[box];
  const float2 lo = __half22float2(*reinterpret_cast<const __half2*>(&v.x));
  const float2 hi = __half22float2(*reinterpret_cast<const __half2*>(&v.y));
  return {lo.x, lo.y, hi.x, hi.y};
}

template <>
__device__ __forceinline__ Box<float> loadBox(const __nv_bfloat16* boxes, std::int64_t box) {
  const uint2 v = reinterpret_cast<const uint2*>(boxes)[box];
  const float2 lo = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&v.x));
  const float2 hi = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&v.y));
  return {lo.x, lo.y, hi.x, hi.y};
}

// y2 alone: whether a target is valid needs no more of it.
template <typename T>
__device__ __forceinline__ float loadY2(const T* boxes, std::int64_t box) {
  return static_cast<float>(boxes[4 * box + 3]);
}

template <typename T>
__device__ __forceinline__ void storeBox(T* boxes, std::int64_t box, const Box<float>& b);

template <>
__device__ __forceinline__ void storeBox(float* boxes, std::int64_t box, const Box<float>& b) {
  reinterpret_cast<float4*>(boxes)[box] = make_float4(b.x1, b.y1, b.x2, b.y2);
}

template <>
__device__ __forceinline__ void storeBox(__half* boxes, std::int64_t box, const Box<float>& b) {
  const __half2 lo = __floats2half2_rn(b.x1, b.y1);
  const __half2 hi = __floats2half2_rn(b.x2, b.y2);
  reinterpret_cast<uint2*>(boxes)[box] =
      make_uint2(*reinterpret_cast<const unsigned*>(&lo), *reinterpret_cast<const unsigned*>(&hi));
}

template <>
__device__ __forceinline__ void storeBox(__nv_bfloat16* boxes, std::int64_t box,
                                         const Box<float>& b) {
  const __nv_bfloat162 lo = __floats2bfloat162_rn(b.x1, b.y1);
  const __nv_bfloat162 hi = __floats2bfloat162_rn(b.x2, b.y2);
  reinterpret_cast<uint2*>(boxes)[box] =
      make_uint2(*reinterpret_cast<const unsigned*>(&lo), *reinterpret_cast<const unsigned*>(&hi));
}

}  // namespace kwb::giou
