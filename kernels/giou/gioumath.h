#pragma once

// The GIoU of one (pred, target) pair of (x1, y1, x2, y2) boxes and its gradient with respect to
// the pred, for the CPU reference (double) and the kernels (float) alike. The formula is the
// write-up's (torchvision's, with epsilon clamps); where a max, min or clamp is at its kink the
// gradient follows PyTorch: a tie of max or min splits it in halves, clamp(min=c) passes it
// where the input is at least c.
#include "kernels/hostdevice.h"

namespace kwb::giou {

template <typename R>
struct Box {
  R x1, y1, x2, y2;
};

template <typename R>
KWB_HOST_DEVICE R maxOf(R a, R b) {
  return a > b ? a : b;
}
template <typename R>
KWB_HOST_DEVICE R minOf(R a, R b) {
  return a < b ? a : b;
}
// d max(a, b) / da and d min(a, b) / da.
template <typename R>
KWB_HOST_DEVICE R maxSlope(R a, R b) {
  return a > b ? R(1) : a == b ? R(0.5) : R(0);
}
template <typename R>
KWB_HOST_DEVICE R minSlope(R a, R b) {
  return a < b ? R(1) : a == b ? R(0.5) : R(0);
}

// 1 / b. On the GPU in single precision an approximate reciprocal, within 1 ulp, that flushes
// subnormals: the IEEE division takes a dozen instructions and a branch, which made the fused
// kernels issue-bound at large batches, and __fdividef about four more to scale subnormal divisors.
// Every divisor here is eps or more, far above the subnormals.
template <typename R>
KWB_HOST_DEVICE R reciprocal(R b) {
#ifdef __CUDA_ARCH__
  if constexpr (sizeof(R) == sizeof(float)) {
    float r;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(b));
    return r;
  }
#endif
  return R(1) / b;
}

template <typename R>
KWB_HOST_DEVICE R giouOf(const Box<R>& a, const Box<R>& b, R eps) {
  const R area1 = (a.x2 - a.x1) * (a.y2 - a.y1);
  const R area2 = (b.x2 - b.x1) * (b.y2 - b.y1);
  const R w = maxOf(minOf(a.x2, b.x2) - maxOf(a.x1, b.x1), R(0));
  const R h = maxOf(minOf(a.y2, b.y2) - maxOf(a.y1, b.y1), R(0));
  const R inter = w * h;
  const R uni = area1 + area2 - inter;
  const R iou = inter * reciprocal(maxOf(uni, eps));
  const R ew = maxOf(maxOf(a.x2, b.x2) - minOf(a.x1, b.x1), R(0));
  const R eh = maxOf(maxOf(a.y2, b.y2) - minOf(a.y1, b.y1), R(0));
  const R enclosing = maxOf(ew * eh, eps);
  return iou - (enclosing - uni) * reciprocal(enclosing);
}

// GIoU and d GIoU / d a, the pred's four coordinates, by reverse mode through giouOf's steps.
template <typename R>
KWB_HOST_DEVICE R giouWithGradient(const Box<R>& a, const Box<R>& b, R eps, Box<R>& grad) {
  const R aw = a.x2 - a.x1, ah = a.y2 - a.y1;
  const R area1 = aw * ah;
  const R area2 = (b.x2 - b.x1) * (b.y2 - b.y1);
  const R wRaw = minOf(a.x2, b.x2) - maxOf(a.x1, b.x1);
  const R hRaw = minOf(a.y2, b.y2) - maxOf(a.y1, b.y1);
  const R w = maxOf(wRaw, R(0)), h = maxOf(hRaw, R(0));
  const R inter = w * h;
  const R uni = area1 + area2 - inter;
  // Two reciprocals serve every quotient of the GIoU and its gradient.
  const R perUni = reciprocal(maxOf(uni, eps));
  const R iou = inter * perUni;
  const R ewRaw = maxOf(a.x2, b.x2) - minOf(a.x1, b.x1);
  const R ehRaw = maxOf(a.y2, b.y2) - minOf(a.y1, b.y1);
  const R ew = maxOf(ewRaw, R(0)), eh = maxOf(ehRaw, R(0));
  const R enclosingRaw = ew * eh;
  const R enclosing = maxOf(enclosingRaw, eps);
  const R perEnclosing = reciprocal(enclosing);
  const R giou = iou - (enclosing - uni) * perEnclosing;

  // giou = iou - 1 + uni / enclosing
  const R gUni = perEnclosing - (uni >= eps ? iou * perUni : R(0));
  const R gInter = perUni - gUni;  // uni = area1 + area2 - inter
  const R gEnclosing = enclosingRaw >= eps ? -uni * perEnclosing * perEnclosing : R(0);
  const R gEw = ewRaw >= R(0) ? gEnclosing * eh : R(0);
  const R gEh = ehRaw >= R(0) ? gEnclosing * ew : R(0);
  const R gW = wRaw >= R(0) ? gInter * h : R(0);
  const R gH = hRaw >= R(0) ? gInter * w : R(0);
  // The min's and the max's slopes of one pair add up to 1: one slope a coordinate, not two.
  const R sx1 = maxSlope(a.x1, b.x1), sy1 = maxSlope(a.y1, b.y1);
  const R sx2 = minSlope(a.x2, b.x2), sy2 = minSlope(a.y2, b.y2);
  grad.x1 = -gUni * ah - gEw - (gW - gEw) * sx1;
  grad.x2 = gUni * ah + gEw + (gW - gEw) * sx2;
  grad.y1 = -gUni * aw - gEh - (gH - gEh) * sy1;
  grad.y2 = gUni * aw + gEh + (gH - gEh) * sy2;
  return giou;
}

}  // namespace kwb::giou
