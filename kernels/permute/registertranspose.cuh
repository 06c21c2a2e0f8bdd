#pragma once

// Small blocks of 1- and 2-byte elements transposed in registers with byte permutes, for the
// tiled kernels that move such elements in words of 4 or 8 bytes; 4-byte elements in 8-byte rows
// take no permutes.
#include <cstdint>

namespace kwb::permute {

// A P x P block of elements packed in words, P = 4 / sizeof(element): word r holds row r (its
// elements along the source's row); afterwards word c holds column c.
template <int P>
__device__ __forceinline__ void transposeInWords(std::uint32_t (&w)[P]) {
  if constexpr (P == 1) {
    return;  // a word of one 4-byte element
  } else if constexpr (P == 4) {
    const std::uint32_t t0 = __byte_perm(w[0], w[1], 0x5140), t1 = __byte_perm(w[0], w[1], 0x7362);
    const std::uint32_t t2 = __byte_perm(w[2], w[3], 0x5140), t3 = __byte_perm(w[2], w[3], 0x7362);
    w[0] = __byte_perm(t0, t2, 0x5410);
    w[1] = __byte_perm(t0, t2, 0x7632);
    w[2] = __byte_perm(t1, t3, 0x5410);
    w[3] = __byte_perm(t1, t3, 0x7632);
  } else {
    const std::uint32_t a = w[0];
    w[0] = __byte_perm(a, w[1], 0x5410);
    w[1] = __byte_perm(a, w[1], 0x7632);
  }
}

// A 2P x 2P block in 8-byte rows (row r in r[r], its low word the first half): four P x P
// quarters transposed in words, the two off the diagonal swapping places.
template <int P>
__device__ __forceinline__ void transposeInRows(uint2 (&r)[2 * P]) {
  std::uint32_t topLeft[P], topRight[P], bottomLeft[P], bottomRight[P];
#pragma unroll
  for (int i = 0; i < P; ++i) {
    topLeft[i] = r[i].x;
    topRight[i] = r[i].y;
    bottomLeft[i] = r[P + i].x;
    bottomRight[i] = r[P + i].y;
  }
  transposeInWords<P>(topLeft);
  transposeInWords<P>(topRight);
  transposeInWords<P>(bottomLeft);
  transposeInWords<P>(bottomRight);
#pragma unroll
  for (int c = 0; c < P; ++c) {
    r[c] = make_uint2(topLeft[c], bottomLeft[c]);
    r[P + c] = make_uint2(topRight[c], bottomRight[c]);
  }
}

}  // namespace kwb::permute
