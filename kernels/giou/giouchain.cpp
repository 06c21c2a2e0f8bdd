#include "kernels/giou/giouchain.h"

#include "kernels/giou/giouops.h"

namespace kwb::giou {
namespace {

// Scratch handed out in order: a column is n floats, a pair 2n.
class Slots {
 public:
  Slots(float* base, std::int64_t n) : next_(base), n_(n) {}
  float* column() { return take(n_); }
  float* pair() { return take(2 * n_); }

 private:
  float* take(std::int64_t count) {
    float* out = next_;
    next_ += count;
    return out;
  }
  float* next_;
  std::int64_t n_;
};

// What enqueueChain takes at most: 17 columns and 8 pairs.
constexpr std::size_t kColumns = 17;
constexpr std::size_t kPairs = 8;

}  // namespace

const float* enqueueChain(const float* preds, const float* targets, std::int64_t n, float epsilon,
                          LossForm form, float* scratch, int block, cudaStream_t stream) {
  Slots slots(scratch, n);
  const auto bin = [&](BinaryOp op, Strided a, Strided b, float* out, int outStride, int width) {
    launchBinary(op, a, b, out, outStride, n, width, block, stream);
  };
  const auto col = [](const float* boxes, int c) { return Strided{boxes + c, 4}; };
  const auto of = [](const float* data, int stride) { return Strided{data, stride}; };

  // area1, area2 = (x2 - x1) * (y2 - y1)
  float* areas[2];
  for (int side = 0; side < 2; ++side) {
    const float* boxes = side == 0 ? preds : targets;
    float* w = slots.column();
    float* h = slots.column();
    areas[side] = slots.column();
    bin(BinaryOp::Sub, col(boxes, 2), col(boxes, 0), w, 1, 1);
    bin(BinaryOp::Sub, col(boxes, 3), col(boxes, 1), h, 1, 1);
    bin(BinaryOp::Mul, of(w, 1), of(h, 1), areas[side], 1, 1);
  }
  // A box's sides (w, h) from corners chosen by `first` over (x1, y1) and `last` over (x2, y2):
  // (min(p[:, 2:], t[:, 2:]) - max(p[:, :2], t[:, :2])).clamp(min=0) for the intersection.
  const auto sides = [&](BinaryOp first, BinaryOp last) {
    float* low = slots.pair();
    float* high = slots.pair();
    float* span = slots.pair();
    float* clamped = slots.pair();
    bin(first, col(preds, 0), col(targets, 0), low, 2, 2);
    bin(last, col(preds, 2), col(targets, 2), high, 2, 2);
    bin(BinaryOp::Sub, of(high, 2), of(low, 2), span, 2, 2);
    launchClampMin(span, clamped, 0.0f, 2 * n, block, stream);
    return clamped;
  };
  const float* whClamped = sides(BinaryOp::Max, BinaryOp::Min);
  // inter, union = area1 + area2 - inter, iou = inter / union.clamp(eps)
  float* inter = slots.column();
  float* areaSum = slots.column();
  float* uni = slots.column();
  float* uniClamped = slots.column();
  float* iou = slots.column();
  bin(BinaryOp::Mul, of(whClamped, 2), of(whClamped + 1, 2), inter, 1, 1);
  bin(BinaryOp::Add, of(areas[0], 1), of(areas[1], 1), areaSum, 1, 1);
  bin(BinaryOp::Sub, of(areaSum, 1), of(inter, 1), uni, 1, 1);
  launchClampMin(uni, uniClamped, epsilon, n, block, stream);
  bin(BinaryOp::Div, of(inter, 1), of(uniClamped, 1), iou, 1, 1);
  // the enclosing box: lti = min(...), rbi = max(...)
  const float* whiClamped = sides(BinaryOp::Min, BinaryOp::Max);
  // areai = (whi[0] * whi[1]).clamp(eps); giou = iou - (areai - union) / areai
  float* areaI = slots.column();
  float* areaIClamped = slots.column();
  float* gap = slots.column();
  float* ratio = slots.column();
  float* giou = slots.column();
  bin(BinaryOp::Mul, of(whiClamped, 2), of(whiClamped + 1, 2), areaI, 1, 1);
  launchClampMin(areaI, areaIClamped, epsilon, n, block, stream);
  bin(BinaryOp::Sub, of(areaIClamped, 1), of(uni, 1), gap, 1, 1);
  bin(BinaryOp::Div, of(gap, 1), of(areaIClamped, 1), ratio, 1, 1);
  bin(BinaryOp::Sub, of(iou, 1), of(ratio, 1), giou, 1, 1);
  if (form == LossForm::SumGiou) return giou;
  float* oneMinus = slots.column();
  launchOneMinus(giou, oneMinus, n, block, stream);
  return oneMinus;
}

std::size_t chainLaunches(LossForm form) {
  return form == LossForm::SumGiou ? 24 : 25;
}

std::size_t chainScratchFloats(std::int64_t n) {
  return static_cast<std::size_t>(n) * (kColumns + 2 * kPairs);
}

}  // namespace kwb::giou
